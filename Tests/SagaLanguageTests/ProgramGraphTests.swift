import Foundation
import SagaCore
import SagaHostLibrary
import Testing

@testable import SagaLanguage

/// `sagarun graph`: a program drawn as Mermaid or DOT, sagas and functions as nodes, the
/// action types they put and take between them.
@Suite("ProgramGraph draws a program's sagas, functions and the actions between them")
struct ProgramGraphTests {
    /// Compiles `source`; a test that needs a program fails here if it does not compile.
    static func program(_ source: String, hostFunctions: Set<String> = []) throws -> Program {
        let result = Frontend(hostFunctions: hostFunctions).compile(source: source, path: "graph.saga")
        return try #require(result.program, "\(result.renderedDiagnostics)")
    }

    static let counter = """
        state { count: 0 }
        reduce "counter/add" as a { state.count = state.count + a.by }
        saga counter {
          every "counter/request" as req {
            delay 100ms
            put "counter/add" { by: req.by }
            let n = select state.count
            log "count is \\(n)"
          }
        }
        """

    @Test func theContractsCounterShowsRequestsFlowingThroughTheWatcherToTheReducer() throws {
        let program = try Self.program(Self.counter)
        #expect(
            ProgramGraph.mermaid(program) == """
                flowchart LR
                    saga_counter(["saga counter"])
                    red_0[("reducer at 2:1")]
                    act_0>"counter/add"]
                    act_1>"counter/request"]
                    saga_counter -->|"put"| act_0
                    act_0 -->|"reduce"| red_0
                    act_1 -->|"every"| saga_counter

                """)
        #expect(
            ProgramGraph.dot(program) == """
                digraph program {
                    rankdir=LR
                    saga_counter [label="saga counter", shape=box, style=rounded]
                    red_0 [label="reducer at 2:1", shape=cylinder]
                    act_0 [label="counter/add", shape=cds]
                    act_1 [label="counter/request", shape=cds]
                    saga_counter -> act_0 [label="put"]
                    act_0 -> red_0 [label="reduce"]
                    act_1 -> saga_counter [label="every"]
                }

                """)
    }

    /// A save goes through the persistence middleware to the `saved` the saga takes; reply
    /// types the program never names are left out.
    @Test func persistenceActionsFlowThroughThePersistenceMiddleware() throws {
        let program = try Self.program(
            """
            saga main {
              put "persistence/save" { entity: "songs", element: { id: 1 } }
              let a = take "persistence/saved"
            }
            """)
        #expect(
            ProgramGraph.mermaid(program) == """
                flowchart LR
                    saga_main(["saga main"])
                    mw_persistence[["persistence middleware"]]
                    act_0>"persistence/save"]
                    act_1>"persistence/saved"]
                    saga_main -->|"put"| act_0
                    mw_persistence -->|"put"| act_1
                    act_0 -->|"handles"| mw_persistence
                    act_1 -->|"take"| saga_main

                """)
        #expect(
            ProgramGraph.dot(program).contains(#"mw_persistence [label="persistence middleware", shape=component]"#))
        let plain = try Self.program(#"saga main { put "a" }"#)
        #expect(!ProgramGraph.mermaid(plain).contains("persistence"))
    }

    @Test func callForkAndSpawnAreSolidDashedAndDottedEdgesToFunctionsAndHostFunctions() throws {
        let program = try Self.program(
            """
            func load(id) {
              let user = call api.fetch(id)
              put "user/loaded" { user: user }
            }
            func audit() { put "audit/done" }
            saga main {
              let a = take "user/request"
              call load(a.id)
              fork load(2)
              fork load(3)
              spawn audit()
            }
            """, hostFunctions: ["api.fetch"])
        #expect(
            ProgramGraph.mermaid(program) == """
                flowchart LR
                    saga_main(["saga main"])
                    fn_audit["func audit()"]
                    fn_load["func load(id)"]
                    host_api_fetch{{"host api.fetch"}}
                    act_0>"audit/done"]
                    act_1>"user/loaded"]
                    act_2>"user/request"]
                    saga_main -.->|"spawn"| fn_audit
                    saga_main -->|"call"| fn_load
                    saga_main -.->|"fork"| fn_load
                    fn_audit -->|"put"| act_0
                    fn_load -->|"call"| host_api_fetch
                    fn_load -->|"put"| act_1
                    act_2 -->|"take"| saga_main
                    linkStyle 0 stroke-dasharray:1 4

                """)
        #expect(
            ProgramGraph.dot(program) == """
                digraph program {
                    rankdir=LR
                    saga_main [label="saga main", shape=box, style=rounded]
                    fn_audit [label="func audit()", shape=box]
                    fn_load [label="func load(id)", shape=box]
                    host_api_fetch [label="host api.fetch", shape=hexagon]
                    act_0 [label="audit/done", shape=cds]
                    act_1 [label="user/loaded", shape=cds]
                    act_2 [label="user/request", shape=cds]
                    saga_main -> fn_audit [label="spawn", style=dotted]
                    saga_main -> fn_load [label="call"]
                    saga_main -> fn_load [label="fork", style=dashed]
                    fn_audit -> act_0 [label="put"]
                    fn_load -> host_api_fetch [label="call"]
                    fn_load -> act_1 [label="put"]
                    act_2 -> saga_main [label="take"]
                }

                """)
    }

    @Test func everyNestedBlockAndEffectEntryIsDrawnAsPartOfItsSagaOrFunction() throws {
        let program = try Self.program(
            """
            func f() { }
            func g() { }
            saga main {
              if true { put "if" } else if false { put "elseif" } else { put "else" }
              while false { put "while" }
              loop { put "loop"; break }
              for x in [1] { put "for" }
              try { put "try" } catch e { put "catch" } finally { put "finally" }
              transaction { compensate { put "compensate" } }
              fork { put "forkBlock" }
              spawn { call f() }
              let w = latest "watched" as a { put "watcherBody" }
              let r = race { a: take "raced", b: call g() }
              let s = all { a: put "allRecord" }
              let l = all [put "allList"]
              let m = all for x in [1] { put "allFor" }
              var v = null
              v = retry 3 delay 1ms put "retried"
            }
            """)
        let lines = ProgramGraph.mermaid(program).split(separator: "\n").map(String.init)
        let edges = lines.filter { $0.contains("|\"") }
        let labelOf = Dictionary(
            uniqueKeysWithValues: lines.compactMap { line -> (String, String)? in
                guard line.hasPrefix("    act_"), let open = line.firstIndex(of: ">") else { return nil }
                let id = String(line[line.index(line.startIndex, offsetBy: 4)..<open])
                return (id, String(line[open...].dropFirst(2).dropLast(2)))
            })
        let puts = edges.filter { $0.hasPrefix("    saga_main -->|\"put\"| ") }.compactMap {
            labelOf[String($0.split(separator: " ").last ?? "")]
        }
        #expect(
            Set(puts) == [
                "if", "elseif", "else", "while", "loop", "for", "try", "catch", "finally", "compensate",
                "forkBlock", "watcherBody", "allRecord", "allList", "allFor", "retried",
            ])
        #expect(edges.contains("    saga_main -->|\"call\"| fn_f"))
        #expect(edges.contains("    saga_main -->|\"call\"| fn_g"))
        #expect(edges.contains { $0.hasSuffix("-->|\"latest\"| saga_main") })
        #expect(edges.contains { $0.hasSuffix("-->|\"take\"| saga_main") })
        #expect(edges.count == 16 + 2 + 2)
    }

    /// A channel made into a variable is a node: puts go into it, takes and watchers come
    /// out of it, and an `actionChannel`'s pattern feeds it.
    @Test func patternsAreSplitIntoLiteralTypesAndAnythingComputedIsOneQuestionMark() throws {
        let program = try Self.program(
            """
            saga main {
              let a = take ["user/*", "cart/add"]
              let t = "dy" + "n"
              let b = take t
              let ch = actionChannel "queue/job" buffer 2
              let c = take ch
              put ch 1
              put t { ok: true }
              put { type: "user/login", id: 1 }
              debounce 10ms * as x { }
            }
            """)
        #expect(
            ProgramGraph.mermaid(program) == """
                flowchart LR
                    saga_main(["saga main"])
                    act_0>"*"]
                    act_1>"cart/add"]
                    act_2>"queue/job"]
                    act_3>"user/*"]
                    act_4>"user/login"]
                    act_5>"?"]
                    chan_0[/"channel ch"/]
                    saga_main -->|"put"| act_4
                    saga_main -->|"put"| act_5
                    saga_main -->|"put"| chan_0
                    act_0 -->|"debounce"| saga_main
                    act_1 -->|"take"| saga_main
                    act_2 -->|"actionChannel"| chan_0
                    act_3 -->|"take"| saga_main
                    act_4 -.->|"matches"| act_3
                    act_5 -->|"take"| saga_main
                    chan_0 -->|"take"| saga_main

                """)
    }

    /// A `let` of a string or a list of strings is the pattern a `take` or watcher naming it
    /// takes; a `var`, which may change, stays `?`.
    @Test func aPatternNamedByALetIsDrawnAsItsTypes() throws {
        let program = try Self.program(
            """
            saga main {
              let kinds = ["user/login", "user/logout"]
              let one = "ping"
              var other = "pong"
              take kinds
              every one as a { }
              take other
            }
            """)
        #expect(
            ProgramGraph.mermaid(program) == """
                flowchart LR
                    saga_main(["saga main"])
                    act_0>"ping"]
                    act_1>"user/login"]
                    act_2>"user/logout"]
                    act_3>"?"]
                    act_0 -->|"every"| saga_main
                    act_1 -->|"take"| saga_main
                    act_2 -->|"take"| saga_main
                    act_3 -->|"take"| saga_main

                """)
    }

    /// An event channel a host function returns is a node of its own, fed by the host
    /// function, where a `take` or watcher uses it as a channel (in a function it is passed to,
    /// too); a host function's other results are no channel.
    @Test func anEventChannelAHostFunctionReturnsIsANodeOfItsOwn() throws {
        let program = try Self.program(
            """
            extern func chat.connect(room)
            extern func chat.typing(room)
            extern func api.user(id)
            func receive(messages) {
              let m = take messages
            }
            saga main {
              let typing = call chat.typing("a")
              debounce 10ms typing as t { }
              let messages = call chat.connect("a")
              call receive(messages)
              let user = call api.user(1)
              put "user/loaded" { user: user }
            }
            """)
        #expect(
            ProgramGraph.mermaid(program) == """
                flowchart LR
                    saga_main(["saga main"])
                    fn_receive["func receive(messages)"]
                    host_api_user{{"host api.user"}}
                    host_chat_connect{{"host chat.connect"}}
                    host_chat_typing{{"host chat.typing"}}
                    act_0>"user/loaded"]
                    chan_0[/"channel typing"/]
                    chan_1[/"channel messages"/]
                    saga_main -->|"call"| fn_receive
                    saga_main -->|"call"| host_api_user
                    saga_main -->|"call"| host_chat_connect
                    saga_main -->|"call"| host_chat_typing
                    saga_main -->|"put"| act_0
                    host_chat_connect -->|"events"| chan_1
                    host_chat_typing -->|"events"| chan_0
                    chan_0 -->|"debounce"| saga_main
                    chan_1 -->|"take"| fn_receive

                """)
    }

    /// A channel a function returns (here an event channel of the host's) is the node of the
    /// variable a `call` of the function gives it to, as redux-saga's helpers that make an
    /// `eventChannel` and return it are used.
    @Test func aChannelAFunctionReturnsIsTheNodeItsCallersVariableNames() throws {
        let program = try Self.program(
            """
            extern func ws.connect(url)
            func connect(url) {
              let ch = call ws.connect(url)
              return ch
            }
            func relay(feed) {
              every feed as m { put "msg" { m: m } }
            }
            saga main {
              let feed = call connect("wss://x")
              spawn relay(feed)
              let first = take feed
            }
            """)
        let edges = ProgramGraph.mermaid(program).split(separator: "\n").map(String.init)
        #expect(edges.contains("    chan_0[/\"channel ch\"/]"))
        #expect(edges.contains("    host_ws_connect -->|\"events\"| chan_0"))
        #expect(edges.contains("    chan_0 -->|\"take\"| saga_main"))
        #expect(edges.contains("    chan_0 -->|\"every\"| fn_relay"))
        #expect(!edges.contains { $0.contains("\"?\"") })
    }

    /// Action types passed to a function's parameter (a string, a `let` of one, a list) are
    /// what a watcher or `put` naming the parameter takes and puts, beside any channel passed
    /// there too.
    @Test func typesPassedToAParameterAreWhatItTakesAndPuts() throws {
        let program = try Self.program(
            """
            func send(target, v) {
              put target v
            }
            func listen(src) {
              every src as m { log m }
            }
            saga main {
              let ch = channel
              let kind = "evt/sent"
              fork listen(ch)
              fork listen(kind)
              fork listen(["x/a", "x/b"])
              call send(ch, 1)
              call send(kind, { n: 2 })
            }
            """)
        #expect(
            ProgramGraph.mermaid(program) == """
                flowchart LR
                    saga_main(["saga main"])
                    fn_listen["func listen(src)"]
                    fn_send["func send(target, v)"]
                    act_0>"evt/sent"]
                    act_1>"x/a"]
                    act_2>"x/b"]
                    chan_0[/"channel ch"/]
                    saga_main -.->|"fork"| fn_listen
                    saga_main -->|"call"| fn_send
                    fn_send -->|"put"| act_0
                    fn_send -->|"put"| chan_0
                    act_0 -->|"every"| fn_listen
                    act_1 -->|"every"| fn_listen
                    act_2 -->|"every"| fn_listen
                    chan_0 -->|"every"| fn_listen

                """)
    }

    /// A channel passed to a function's parameter, there or on to another function, is the
    /// node its takes come out of; a parameter given two different channels takes from both.
    @Test func aChannelPassedToAFunctionIsTheNodeItsParameterNames() throws {
        let program = try Self.program(
            """
            func worker(ch) { let m = take ch }
            func relay(ch) { fork worker(ch) }
            func either(ch) { let m = take ch }
            saga main {
              let jobs = channel
              fork relay(jobs)
              let other = channel
              fork either(jobs)
              fork either(other)
            }
            """)
        #expect(
            ProgramGraph.mermaid(program) == """
                flowchart LR
                    saga_main(["saga main"])
                    fn_either["func either(ch)"]
                    fn_relay["func relay(ch)"]
                    fn_worker["func worker(ch)"]
                    chan_0[/"channel jobs"/]
                    chan_1[/"channel other"/]
                    saga_main -.->|"fork"| fn_either
                    saga_main -.->|"fork"| fn_relay
                    fn_relay -.->|"fork"| fn_worker
                    chan_0 -->|"take"| fn_either
                    chan_0 -->|"take"| fn_worker
                    chan_1 -->|"take"| fn_either

                """)
    }

    @Test func aChannelPassedOnByAWatcherIsDrawnAsOneNode() throws {
        let program = try Self.program(
            """
            saga main {
              let jobs = channel buffer 10
              every "job/add" as a { put jobs a }
              every jobs as job { put "job/done" { id: job.id } }
            }
            """)
        #expect(
            ProgramGraph.dot(program, includeReducers: false) == """
                digraph program {
                    rankdir=LR
                    saga_main [label="saga main", shape=box, style=rounded]
                    act_0 [label="job/add", shape=cds]
                    act_1 [label="job/done", shape=cds]
                    chan_0 [label="channel jobs", shape=parallelogram]
                    saga_main -> act_1 [label="put"]
                    saga_main -> chan_0 [label="put"]
                    act_0 -> saga_main [label="every"]
                    chan_0 -> saga_main [label="every"]
                }

                """)
    }

    @Test func labelsAreEscapedForEachSyntax() throws {
        let program = try Self.program(
            #"""
            saga main {
              put "say \"hi\" #1 <b>&[x]"
              take "back\\slash`{y}"
            }
            """#)
        #expect(
            ProgramGraph.mermaid(program) == #"""
                flowchart LR
                    saga_main(["saga main"])
                    act_0>"back\slash#96;{y}"]
                    act_1>"say #quot;hi#quot; #35;1 #lt;b#gt;#amp;[x]"]
                    saga_main -->|"put"| act_1
                    act_0 -->|"take"| saga_main

                """#)
        #expect(
            ProgramGraph.dot(program) == #"""
                digraph program {
                    rankdir=LR
                    saga_main [label="saga main", shape=box, style=rounded]
                    act_0 [label="back\\slash`{y}", shape=cds]
                    act_1 [label="say \"hi\" #1 <b>&[x]", shape=cds]
                    saga_main -> act_1 [label="put"]
                    act_0 -> saga_main [label="take"]
                }

                """#)
    }

    /// A `put` of a type held by a `let` is drawn as that type, as a `take` of one is.
    @Test func aPutOfATypeHeldByALetIsDrawnAsThatType() throws {
        let program = try Self.program(
            """
            saga main { let t = "dec"; put t; let p = ["a", "b"]; take p }
            """)
        let graph = ProgramGraph.mermaid(program)
        #expect(graph.contains("\"dec\"]"), "\(graph)")
        #expect(!graph.contains("\"?\"]"), "\(graph)")
    }

    /// A reducer another file declares is named by that file's path too.
    @Test func anImportedReducerIsNamedByItsFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("reduce \"a\" as x { }\n".utf8).write(to: folder.appendingPathComponent("lib.saga"))
        try Data("import \"lib.saga\"\nreduce \"b\" as x { }\n".utf8).write(
            to: folder.appendingPathComponent("main.saga"))
        let result = Frontend().compile(path: folder.appendingPathComponent("main.saga").path)
        let program = try #require(result.program, "\(result.renderedDiagnostics)")
        let graph = ProgramGraph.mermaid(program)
        #expect(graph.contains("lib.saga:1:1\")]"), "\(graph)")
        #expect(graph.contains("(\"reducer at 2:1\")"), "\(graph)")
    }

    @Test func reducersCanBeLeftOut() throws {
        let program = try Self.program(Self.counter + "\nreduce \"only/reduced\" as a { }\n")
        // Each reducer by where it is declared.
        #expect(ProgramGraph.mermaid(program).contains("red_1[(\"reducer at 11:1\")]"))
        #expect(
            ProgramGraph.mermaid(program, includeReducers: false) == """
                flowchart LR
                    saga_counter(["saga counter"])
                    act_0>"counter/add"]
                    act_1>"counter/request"]
                    saga_counter -->|"put"| act_0
                    act_1 -->|"every"| saga_counter

                """)
        #expect(!ProgramGraph.dot(program, includeReducers: false).contains("red_"))
    }

    @Test func idsFollowNamesNotDeclarationOrderAndStayUniqueWhenNamesCollide() throws {
        let one = try Self.program(
            """
            func a.b() { put "x" }
            func a_b() { put "y" }
            saga zeta { call a.b() }
            saga alpha { call a_b() }
            """)
        let other = try Self.program(
            """
            saga alpha { call a_b() }
            saga zeta { call a.b() }
            func a_b() { put "y" }
            func a.b() { put "x" }
            """)
        #expect(
            ProgramGraph.mermaid(one) == """
                flowchart LR
                    saga_alpha(["saga alpha"])
                    saga_zeta(["saga zeta"])
                    fn_a_b["func a.b()"]
                    fn_a_b_2["func a_b()"]
                    act_0>"x"]
                    act_1>"y"]
                    saga_alpha -->|"call"| fn_a_b_2
                    saga_zeta -->|"call"| fn_a_b
                    fn_a_b -->|"put"| act_0
                    fn_a_b_2 -->|"put"| act_1

                """)
        #expect(ProgramGraph.mermaid(other) == ProgramGraph.mermaid(one))
        #expect(ProgramGraph.dot(other) == ProgramGraph.dot(one))
    }

    // MARK: - Every example program

    static let exampleFiles: [String] = {
        let sagas = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sagas").resolvingSymlinksInPath()
        let walker = FileManager.default.enumerator(at: sagas, includingPropertiesForKeys: nil)
        return (walker?.allObjects ?? []).compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".saga") }.sorted()
    }()

    @Test func theExamplesAreThere() {
        #expect(Self.exampleFiles.count >= 30)
    }

    @Test(arguments: exampleFiles)
    func everyExampleRendersAsWellFormedMermaid(_ path: String) throws {
        let result = Frontend(hostFunctions: HostLibrary.names).compile(path: path)
        let program = try #require(result.program, "\(result.renderedDiagnostics)")
        let model = GraphBuilder(program: program, includeReducers: true).model()
        let mermaid = ProgramGraph.mermaid(program)
        #expect(ProgramGraph.mermaid(program) == mermaid, "the same program gives the same text")
        var lines = mermaid.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "flowchart LR")
        #expect(lines.last == "")
        lines = Array(lines.dropFirst().dropLast())
        let id = "[A-Za-z_][A-Za-z0-9_]*"
        let shapes =
            #"\(\["[^"]*"\]\)|\["[^"]*"\]|\{\{"[^"]*"\}\}|\[\("[^"]*"\)\]|>"[^"]*"\]|\[/"[^"]*"/\]|\[\["[^"]*"\]\]"#
        let node = try Regex(#"^    \#(id)(\#(shapes))$"#)
        let edge = try Regex(#"^    \#(id) (-->|-\.->)\|"[a-zA-Z]+"\| \#(id)$"#)
        let style = try Regex(#"^    linkStyle [0-9]+(,[0-9]+)* stroke-dasharray:1 4$"#)
        let nodeLines = lines.filter { $0.wholeMatch(of: node) != nil }
        let edgeLines = lines.filter { $0.wholeMatch(of: edge) != nil }
        let styleLines = lines.filter { $0.wholeMatch(of: style) != nil }
        #expect(nodeLines.count == model.nodes.count)
        #expect(edgeLines.count == model.edges.count, "one line per edge")
        #expect(nodeLines.count + edgeLines.count + styleLines.count == lines.count, "\(mermaid)")
        #expect(Set(model.nodes.map(\.id)).count == model.nodes.count, "ids are unique")
        #expect(model.nodes.contains { $0.kind == .saga } || program.sagas.isEmpty)
    }

    @Test(arguments: exampleFiles)
    func everyExampleRendersAsWellFormedDOT(_ path: String) throws {
        let result = Frontend(hostFunctions: HostLibrary.names).compile(path: path)
        let program = try #require(result.program, "\(result.renderedDiagnostics)")
        let model = GraphBuilder(program: program, includeReducers: true).model()
        let dot = ProgramGraph.dot(program)
        #expect(dot.hasPrefix("digraph program {\n    rankdir=LR\n"))
        #expect(dot.hasSuffix("\n}\n"))
        var depth = 0
        var inString = false
        var escaped = false
        for character in dot {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
                #expect(depth >= 0, "a bracket closes before it opens")
            }
        }
        #expect(depth == 0 && !inString, "braces, brackets and quotes balance")
        let edgeLines = dot.split(separator: "\n").filter { $0.contains(" -> ") }
        #expect(edgeLines.count == model.edges.count, "one line per edge")
        for line in edgeLines {
            #expect(line.hasPrefix("    ") && line.hasSuffix("]") && line.contains(" [label=\""), "\(line)")
        }
    }
}
