import SagaCore

/// The nodes of an AST's JSON (`sagarun ast`) that `describe` picks, each as the line it
/// gives, sorted: what the slot and callee planning tests compare between two parses.
func astNodes(_ value: Value, _ describe: (Record) -> String?) -> [String] {
    var found: [String] = []
    func walk(_ value: Value) {
        switch value {
        case .list(let items):
            items.forEach(walk)
        case .record(let record):
            if let line = describe(record) { found.append(line) }
            for key in record.keys { record[key].map(walk) }
        default:
            break
        }
    }
    walk(value)
    return found.sorted()
}
