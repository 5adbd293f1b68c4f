import SagaCore

extension Query {
    /// Whether `element` satisfies every condition of `where`.
    public func matches(_ element: Value) -> Bool {
        for condition in conditions {
            let value = condition.path.value(in: element)
            for test in condition.tests where !test.holds(for: value) { return false }
        }
        return true
    }

    /// The elements that match, ordered by `orderBy` then by `id`, then paged by `offset`
    /// and `limit`.
    ///
    /// - Complexity: O(n log n) for n elements; O(n log m) when `offset + limit` = m is small.
    public func apply(_ elements: [Value]) -> [Value] {
        let width = orderBy.count + 1
        // Row r's sort values are keys[r * width ..< (r + 1) * width], the id last.
        var keys: [Value] = []
        var rows: [Value] = []
        for element in elements where matches(element) {
            for key in orderBy { keys.append(key.path.value(in: element)) }
            keys.append(element["id"])
            rows.append(element)
        }
        let descending = orderBy.map(\.descending) + [false]
        let wanted = limit.map { offset.addingReportingOverflow($0).overflow ? Int.max : offset + $0 } ?? Int.max
        return keys.withUnsafeBufferPointer { k in
            func precedes(_ a: Int, _ b: Int) -> Bool {
                var i = a * width
                var j = b * width
                for d in descending {
                    let c = Self.fastCompare(k[i], k[j])
                    if c != 0 { return d ? c > 0 : c < 0 }
                    i += 1
                    j += 1
                }
                return false
            }
            let order: [Int]
            if wanted < rows.count / 4 {
                order = Self.smallest(wanted, of: rows.count, by: precedes)
            } else {
                var all = Array(0..<rows.count)
                all.sort(by: precedes)
                order = all
            }
            let start = min(offset, order.count)
            let end = min(order.count, wanted)
            return start < end ? order[start..<end].map { rows[$0] } : []
        }
    }

    /// ValueOrder, with the common cases (two integers, two strings) first.
    @inline(__always)
    private static func fastCompare(_ a: Value, _ b: Value) -> Int {
        if case .int(let x) = a, case .int(let y) = b { return x < y ? -1 : (x == y ? 0 : 1) }
        return ValueOrder.compare(a, b)
    }

    /// The `m` first of rows `0..<n` in order, sorted, through a bounded max-heap.
    private static func smallest(_ m: Int, of n: Int, by precedes: (Int, Int) -> Bool) -> [Int] {
        if m <= 0 { return [] }
        var heap: [Int] = []
        heap.reserveCapacity(m)
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var top = i
                if l < heap.count, precedes(heap[top], heap[l]) { top = l }
                if r < heap.count, precedes(heap[top], heap[r]) { top = r }
                if top == i { return }
                heap.swapAt(i, top)
                i = top
            }
        }
        for row in 0..<n {
            if heap.count < m {
                heap.append(row)
                var i = heap.count - 1
                while i > 0, precedes(heap[(i - 1) / 2], heap[i]) {
                    heap.swapAt(i, (i - 1) / 2)
                    i = (i - 1) / 2
                }
            } else if precedes(row, heap[0]) {
                heap[0] = row
                siftDown(0)
            }
        }
        heap.sort(by: precedes)
        return heap
    }
}
