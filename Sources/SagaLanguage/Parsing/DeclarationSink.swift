/// Where the parser puts each top-level declaration as soon as it has parsed it.
///
/// ``DeclarationList`` keeps them all, for a program that is to run or be shown.
/// `CheckingSink` checks each one and lets its tree go, for a compile that wants only the
/// diagnostics (`Frontend.check(path:)`): a large file is then never held whole in memory.
///
/// A `SendableMetatype`: each piece of a large file is parsed into a sink of its own on a
/// thread of its own (Parser+Pieces.swift), which makes it from the type.
protocol DeclarationSink: SendableMetatype {
    /// An empty sink, one for each unit the parser makes (a file, or a piece of a large one).
    init()

    /// Whether the unit's names must be numbered as the program numbers them: the pieces of
    /// a large file number theirs apart, and joining the numbers would take time for
    /// declarations already checked.
    static var needsProgramNames: Bool { get }

    /// Takes `declaration`, just parsed, whose head is `head`; `names` are the parser's
    /// numbered identifiers, which the declaration's variables refer to by number.
    mutating func take(_ declaration: consuming Declaration, head: DeclarationHead, names: inout NameInterner)

    /// The unit of what was taken, in the order taken.
    consuming func unit(file: Int32) -> SourceUnit
}

/// Keeps every declaration the parser hands over, with the head it noted of each.
struct DeclarationList: DeclarationSink {
    var declarations: [Declaration] = []
    var heads: [DeclarationHead] = []

    init() {}

    static var needsProgramNames: Bool { true }

    mutating func take(_ declaration: consuming Declaration, head: DeclarationHead, names: inout NameInterner) {
        heads.append(head)
        declarations.append(declaration)
    }

    consuming func unit(file: Int32) -> SourceUnit {
        var unit = SourceUnit(file: file, declarations: declarations)
        unit.heads = heads
        return unit
    }
}
