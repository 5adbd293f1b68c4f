// Node's fetch against a URL: TOTAL requests by CONCURRENCY loops at once, each awaiting
// its response's JSON; prints the rate.   node http-fetch.mjs URL TOTAL CONCURRENCY
const [url, total, concurrency] = [process.argv[2], +process.argv[3], +process.argv[4]];
let done = 0;
const t0 = performance.now();
async function worker(n) { for (let i = 0; i < n; i++) { const r = await fetch(url); await r.json(); done++; } }
await Promise.all(Array.from({ length: concurrency }, () => worker(total / concurrency)));
const s = (performance.now() - t0) / 1000;
console.log(`node fetch: ${done} requests in ${s.toFixed(3)} s, ${(done / s).toFixed(0)}/s`);
