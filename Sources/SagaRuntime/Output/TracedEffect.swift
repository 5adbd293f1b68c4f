import SagaCore

/// An effect as the trace describes it (`file:3:5 (take "ping")`): the text, and the text as a
/// JSON string, escaped once for every slice that names it.
///
/// A class: a task notes the one of each effect it performs, and the slice of its wait names
/// it, with one reference each time.
final class TracedEffect {
    let text: String
    let json: [UInt8]

    init(_ text: String) {
        self.text = text
        var json: [UInt8] = []
        Value.string(text).writeCanonicalJSON(into: &json)
        self.json = json
    }
}
