extension ProgramGraph {
    /// Renders the model as a Mermaid flowchart.
    static func renderMermaid(_ model: GraphModel) -> String {
        var out = "flowchart LR\n"
        for node in model.nodes {
            let label = "\"" + mermaidEscape(node.label) + "\""
            let shaped: String
            switch node.kind {
            case .saga: shaped = "([\(label)])"
            case .function: shaped = "[\(label)]"
            case .host: shaped = "{{\(label)}}"
            case .reducer: shaped = "[(\(label))]"
            case .action: shaped = ">\(label)]"
            case .channel: shaped = "[/\(label)/]"
            case .middleware: shaped = "[[\(label)]]"
            }
            out += "    \(node.id)\(shaped)\n"
        }
        var spawned: [Int] = []
        for (index, edge) in model.edges.enumerated() {
            let arrow: String
            switch edge.kind {
            case .call, .put, .take, .reduce: arrow = "-->"
            case .fork, .matches: arrow = "-.->"
            case .spawn:
                arrow = "-.->"
                spawned.append(index)
            }
            let from = model.nodes[edge.from].id
            let to = model.nodes[edge.to].id
            out += "    \(from) \(arrow)|\"\(mermaidEscape(edge.label))\"| \(to)\n"
        }
        if !spawned.isEmpty {
            out += "    linkStyle \(spawned.map(String.init).joined(separator: ",")) stroke-dasharray:1 4\n"
        }
        return out
    }

    /// Escapes text for a quoted Mermaid label: the characters that would end the label or
    /// be read as markup become entity codes (`#quot;`, `#35;`, …); line breaks become spaces.
    static func mermaidEscape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "#quot;"
            case "#": out += "#35;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case "&": out += "#amp;"
            case "`": out += "#96;"
            case "\n", "\r", "\t": out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
