// Which `{` tokens open statement blocks: the formatter puts a block's statements on their
// own lines, but keeps a record's line breaks as written. Only the parser knows which is
// which (`put "a" { x: 1 }` versus `if a { x }`), so the formatter asks the AST.

import SagaCore

/// The locations of the `{` of every ``Block`` in a parsed file.
enum BlockBraces {
    /// Every block's `{` (its ``Block/location``) in `unit`.
    static func locations(in unit: SourceUnit) -> Set<SourceLocation> {
        var found: Set<SourceLocation> = []
        for declaration in unit.declarations {
            switch declaration {
            case .import, .state, .extern: break
            case .reducer(let r): collect(r.body, into: &found)
            case .saga(let s): collect(s.body, into: &found)
            case .function(let f): collect(f.body, into: &found)
            }
        }
        return found
    }

    static func collect(_ block: Block, into found: inout Set<SourceLocation>) {
        found.insert(block.location)
        for statement in block.statements { collect(statement, into: &found) }
    }

    static func collect(_ statement: Stmt, into found: inout Set<SourceLocation>) {
        switch statement {
        case .declare(_, _, let rhs, _), .assign(_, let rhs, _):
            if case .effect(let effect) = rhs { collect(effect, into: &found) }
        case .effect(let effect, _):
            collect(effect, into: &found)
        case .if(let arms, let elseBlock, _):
            for arm in arms { collect(arm.body, into: &found) }
            if let elseBlock { collect(elseBlock, into: &found) }
        case .while(_, let body, _), .loop(let body, _), .for(_, _, let body, _),
            .transaction(let body, _), .compensate(let body, _):
            collect(body, into: &found)
        case .try(let body, let catchClause, let finallyBlock, _):
            collect(body, into: &found)
            if let catchClause { collect(catchClause.body, into: &found) }
            if let finallyBlock { collect(finallyBlock, into: &found) }
        case .log, .throw, .break, .continue, .return:
            break
        }
    }

    /// Expressions hold no blocks; effects hold them through `fork { }`, `spawn { }`,
    /// watchers, and the effects nested in `race`, `all` and `retry`.
    static func collect(_ effect: Effect, into found: inout Set<SourceLocation>) {
        switch effect {
        case .fork(let body, _), .spawn(let body, _):
            if case .block(let block) = body { collect(block, into: &found) }
        case .watcher(let watcher):
            collect(watcher.body, into: &found)
        case .race(let entries, _), .allRecord(let entries, _):
            for entry in entries { collect(entry.effect, into: &found) }
        case .allList(let effects, _):
            for inner in effects { collect(inner, into: &found) }
        case .allFor(_, _, let inner, _), .retry(_, _, let inner, _, _):
            collect(inner, into: &found)
        case .take, .put, .select, .call, .join, .cancel, .delay, .channel, .actionChannel, .close, .flush:
            break
        }
    }
}
