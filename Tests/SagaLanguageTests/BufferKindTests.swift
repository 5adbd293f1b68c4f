import SagaCore
import Testing

@testable import SagaLanguage

/// `channel buffer N KIND` and `actionChannel P buffer N KIND`: the kind is kept in the tree,
/// shown by `sagarun ast` when it is not the form's own, and an unknown one is an error that
/// lists the kinds.
@Suite struct BufferKindTests {
    /// The effect of `let c = EFFECT` in a saga.
    func effect(_ text: String) -> (Effect?, String) {
        let result = Frontend().compile(source: "saga main {\n  let c = \(text)\n}\n", path: "b.saga")
        guard let saga = result.program?.sagas.first,
            case .declare(_, _, .effect(let e), _)? = saga.body.statements.first
        else { return (nil, result.renderedDiagnostics) }
        return (e, result.renderedDiagnostics)
    }

    @Test func eachKindIsKept() {
        for kind in BufferKind.allCases {
            guard case .channel(_, let parsed, _)? = effect("channel buffer 2 \(kind.rawValue)").0 else {
                Issue.record("channel buffer 2 \(kind.rawValue) did not parse")
                continue
            }
            #expect(parsed == kind)
        }
        if case .channel(let buffer, let kind, _)? = effect("channel").0 {
            #expect(buffer == nil && kind == .expanding)
        }
        if case .channel(_, let kind, _)? = effect("channel buffer 3").0 { #expect(kind == .dropping) }
        if case .actionChannel(_, _, let kind, _)? = effect(#"actionChannel "a" buffer 1 sliding"#).0 {
            #expect(kind == .sliding)
        } else {
            Issue.record("actionChannel with a kind did not parse")
        }
    }

    @Test func anUnknownKindListsTheKinds() {
        let (parsed, diagnostics) = effect("channel buffer 2 sideways")
        #expect(parsed == nil)
        #expect(
            diagnostics.contains("unknown buffer kind 'sideways'; the kinds are dropping, sliding, fixed, expanding"))
    }

    @Test func theASTShowsAKindOnlyWhenItIsNotTheFormsOwn() throws {
        let program = try #require(
            Frontend().compile(
                source:
                    "saga main {\n  let a = channel\n  let b = channel buffer 1\n  let c = channel buffer 1 fixed\n}\n",
                path: "b.saga"
            ).program)
        let json = astJSON(program).canonicalJSON
        #expect(json.components(separatedBy: "bufferKind").count == 2)
        #expect(json.contains(#""bufferKind":"fixed""#))
    }

    /// A kind with no size says where it goes; `flush` and `close` in an expression say they
    /// are effects.
    @Test func misplacedWordsSayWhy() {
        #expect(effect("channel sliding").1.contains("a buffer kind follows its size: channel buffer N sliding"))
        #expect(effect("channel()").1.contains("channel takes no parentheses: write 'channel'"))
        let result = Frontend().compile(source: "saga main {\n  let s = channel\n  log flush s\n}\n", path: "b.saga")
        #expect(result.renderedDiagnostics.contains("'flush' is an effect and cannot be used inside an expression"))
    }
}
