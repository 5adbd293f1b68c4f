// A local HTTP server for http-compare.py: answers every request with {"ok":true}, keeping
// connections alive; prints its port.
import http from 'node:http';
const body = '{"ok":true}';
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => { console.log(server.address().port); });
