extension ProgramGraph {
    /// Renders the model as a Graphviz `digraph`.
    static func renderDOT(_ model: GraphModel) -> String {
        var out = "digraph program {\n    rankdir=LR\n"
        for node in model.nodes {
            let shape: String
            switch node.kind {
            case .saga: shape = "shape=box, style=rounded"
            case .function: shape = "shape=box"
            case .host: shape = "shape=hexagon"
            case .reducer: shape = "shape=cylinder"
            case .action: shape = "shape=cds"
            case .channel: shape = "shape=parallelogram"
            case .middleware: shape = "shape=component"
            }
            out += "    \(node.id) [label=\(dotQuote(node.label)), \(shape)]\n"
        }
        for edge in model.edges {
            var attributes = "label=\(dotQuote(edge.label))"
            switch edge.kind {
            case .call, .put, .take, .reduce: break
            case .fork: attributes += ", style=dashed"
            case .spawn: attributes += ", style=dotted"
            case .matches: attributes += ", style=dotted, arrowhead=empty"
            }
            out += "    \(model.nodes[edge.from].id) -> \(model.nodes[edge.to].id) [\(attributes)]\n"
        }
        return out + "}\n"
    }

    /// A DOT quoted string: `\` and `"` escaped, line breaks as `\n`.
    static func dotQuote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
