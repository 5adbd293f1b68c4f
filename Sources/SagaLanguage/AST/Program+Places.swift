import SagaCore

extension Program {
    /// `path:line:column` of `location`, as error stacks and traces show it; `<builtin>`
    /// stands for the path of code no file of the program holds.
    package func place(of location: SourceLocation) -> String {
        let i = Int(location.file)
        let path = i >= 0 && i < files.count ? files[i].path : "<builtin>"
        return "\(path):\(location.line):\(location.column)"
    }
}
