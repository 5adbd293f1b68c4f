/// The specs and help of every command.
enum Commands {
    static let names = ["run", "check", "fmt", "ast", "test", "graph", "store"]

    static let overview = """
        OVERVIEW: Run sagas: long-running side-effect workflows over a Redux store.

        USAGE: sagarun <file.saga> [options]      (same as 'sagarun run')
               sagarun <subcommand> [arguments]

        SUBCOMMANDS:
          run                     Run a saga program (the default).
          check                   Parse and check saga files; print every diagnostic.
          fmt                     Format saga files in the canonical style (--check: only report).
          ast                     Print a file's effect AST as JSON.
          test                    Run golden-file tests.
          graph                   Draw a program: sagas, functions and the actions they take and put.
          store                   Check (verify), rewrite (compact) or rebuild (recover) a file store.

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

          See 'sagarun help <subcommand>' for detailed help.

        """

    static func spec(_ name: String) -> CommandSpec {
        switch name {
        case "run": return run
        case "check": return check
        case "ast": return ast
        case "test": return test
        case "graph": return graph
        case "fmt": return fmt
        case "store": return store
        case "store verify": return storeVerify
        case "store compact": return storeCompact
        case "store recover": return storeRecover
        default:
            return CommandSpec(
                name: "sagarun", abstract: "Run sagas.", usage: "sagarun <file.saga> [options] | sagarun <subcommand>",
                arguments: [], flags: [], options: [])
        }
    }

    static let run = CommandSpec(
        name: "run",
        abstract: "Run a saga program: its sagas run against a Redux store until nothing more can happen.",
        usage:
            "sagarun run <file.saga> [--input <file>] [--mocks <file>] [--virtual-time] [--print-actions] [--print-state] [--timestamps] [--memory | --store <dir>] [--trace <file>] [--allow-…] [--host <name=command>] [--record <file>] [-- <argument> ...]",
        arguments: [("<file.saga>", "The program to run.")],
        flags: [
            .init(name: "--virtual-time", help: "Deterministic scheduling on a virtual clock."),
            .init(name: "--print-actions", help: "Print 'action <json>' for each dispatched action."),
            .init(name: "--print-state", help: "Print 'state <json>' at the end."),
            .init(name: "--timestamps", help: "Prefix each transcript line with '@<ms> '."),
            .init(name: "--memory", help: "Use an in-memory store instead of the file store."),
            .init(
                name: "--allow-all", help: "Allow every host library function: network, processes, files, environment."),
        ],
        options: [
            .init(
                name: "--record", valueName: "file",
                help: "Write every host function call and its result as a mocks file (for --mocks)."),
            .init(
                name: "--input", valueName: "file",
                help:
                    "Outside actions, one JSON record a line ('-' for standard input); {\"channel\": NAME, \"value\": …} feeds an event channel."
            ),
            .init(
                name: "--mocks", valueName: "file",
                help: "Results of the host functions ('extern func'), one JSON record a call, in call order."),
            .init(
                name: "--store", valueName: "dir",
                help: "The file store's folder (default: .sagastore), opened at the first persistence action."),
            .init(
                name: "--max-call-depth", valueName: "n",
                help: "How deeply calls may nest before the call fails (default 1000000)."),
            .init(
                name: "--max-steps", valueName: "n",
                help: "Steps a task may take without waiting before it fails (default 100000000)."),
            .init(
                name: "--max-tasks", valueName: "n",
                help: "Tasks that may be alive at once; starting more fails (default 10000000)."),
            .init(
                name: "--max-buffer", valueName: "n",
                help: "Messages an unbounded channel may hold; a put beyond fails (default 1000000)."),
            .init(
                name: "--max-length", valueName: "n",
                help: "Longest list (elements) or string (UTF-8 bytes) a program may build (default 16777216)."),
            .init(
                name: "--max-run-steps", valueName: "n",
                help: "Steps the whole run may take, every task together; past it the run stops (default: none)."),
            .init(
                name: "--max-memory", valueName: "mib",
                help: "Memory the run may hold, in MiB; past it the run stops (default 1024)."),
            .init(
                name: "--max-turns-without-input", valueName: "n",
                help:
                    "Turns the run may take with no input, host answer or wait; past it the run stops (default 10000000)."
            ),
            .init(
                name: "--yield-after", valueName: "n",
                help:
                    "A task that runs n steps without blocking lets the others, and the actions queued, go first; a take loop then misses those actions (default: never)."
            ),
            .init(
                name: "--trace", valueName: "file",
                help: "Write a Chrome Trace Event Format file of the run (opens in Perfetto)."),
        ],
        repeatable: [
            .init(
                name: "--allow-net", valueName: "hosts",
                help: "Allow HTTP requests (to these hosts, host:port; a URL gives its host)."),
            .init(name: "--allow-run", valueName: "commands", help: "Allow exec and sh (of these commands)."),
            .init(name: "--allow-read", valueName: "paths", help: "Allow reading files (under these paths)."),
            .init(name: "--allow-write", valueName: "paths", help: "Allow writing files (under these paths)."),
            .init(name: "--allow-env", valueName: "names", help: "Allow reading environment variables (these)."),
            .init(
                name: "--host", valueName: "name=command",
                help: "Serve extern functions NAME and NAME.* by a process speaking JSON lines (run by /bin/sh).",
                valueRequired: true),
        ],
        discussion: """
            The host library (http.request/get/post, exec, sh, file.read/write/append/list/exists,
            env, args) reaches nothing unless an --allow flag allows it; a call without its
            permission fails in the saga with a PermissionError that names the flag. Lists are
            comma-separated. call args() gives the arguments after '--'.

            Exit codes: 0 success; 1 a root saga or a spawned task failed, the run passed
            --max-run-steps, --max-turns-without-input or --max-memory, a mocks line did not
            match its call or was never used, or an input line for an event channel found none
            open; 64 bad usage; 65 invalid source or input; 66 a file that cannot be read; 74 a
            store, trace or mocks file that cannot be opened or written (damaged, in use, newer,
            unreadable, or a disk that is full); 130 and 143 stopped by SIGINT or SIGTERM, once
            the root sagas' finally blocks have run (a second signal ends it at once).

            Input comes only from --input (--input - reads standard input).
            """)

    static let check = CommandSpec(
        name: "check", abstract: "Parse and check saga files; print every diagnostic; change nothing.",
        usage: "sagarun check <file.saga|folder> ... [--format text|json] [--input <file>]",
        arguments: [("<file.saga|folder>", "The files to check; a folder, every .saga file under it.")],
        flags: [],
        options: [
            .init(
                name: "--input", valueName: "file",
                help:
                    "The input the program will get: warn about takes that no put and no input line can match, "
                    + "and fail on a line that is not valid input."),
            .init(
                name: "--format", valueName: "format",
                help:
                    "text (default: as swiftc prints them, on standard error) or json (one document on standard output)."
            ),
        ])

    static let ast = CommandSpec(
        name: "ast", abstract: "Print the effect AST of a file as JSON, or what the runtime compiles it to.",
        usage: "sagarun ast <file.saga> [--compiled]", arguments: [("<file.saga>", "The file to print.")],
        flags: [
            .init(
                name: "--compiled",
                help:
                    "Print, as text, the code of each reducer, saga and function and of each body they start (forked blocks, watchers' bodies, compensations), with the source lines it comes from."
            )
        ], options: [])

    static let fmt = CommandSpec(
        name: "fmt",
        abstract: "Format saga files in the one canonical style, in place; comments are kept, programs never change.",
        usage: "sagarun fmt <file.saga|folder> ... [--check]",
        arguments: [("<file.saga|folder>", "The files to format; a folder, every .saga file under it.")],
        flags: [
            .init(name: "--check", help: "Change nothing: list the files that would change, and exit 1 if any would.")
        ],
        options: [])

    static let graph = CommandSpec(
        name: "graph",
        abstract:
            "Draw a program as Mermaid (default) or Graphviz DOT: sagas and functions, fork/call/spawn edges, and the actions each takes and puts.",
        usage: "sagarun graph <file.saga> [--format mermaid|dot] [--no-reducers]",
        arguments: [("<file.saga>", "The program to draw.")],
        flags: [.init(name: "--no-reducers", help: "Leave the reducers out.")],
        options: [.init(name: "--format", valueName: "format", help: "mermaid (default) or dot.")])

    static let test = CommandSpec(
        name: "test",
        abstract: "Run golden-file tests: each X.saga with an X.golden beside it.",
        usage: "sagarun test [<path> ...] [--update] [--filter <text>] [--inject-failures [--twice]]",
        arguments: [("<path>", "Files or folders to search (default: the current folder).")],
        flags: [
            .init(
                name: "--update", help: "Rewrite the golden files with the actual transcripts (or failure summaries)."),
            .init(
                name: "--inject-failures",
                help: "Rerun each program once per call it makes, with that call throwing; report how it ended."),
            .init(name: "--twice", help: "With --inject-failures: run each compensation twice (is it idempotent?)."),
        ],
        options: [.init(name: "--filter", valueName: "text", help: "Only run files whose path contains the text.")],
        discussion: """
            Each program runs as 'run --virtual-time --print-actions --print-state --memory',
            with X.input.jsonl as its input and X.mocks.jsonl as the results of its extern
            functions when they are there. A mismatch prints a unified diff. A program that does
            not run (it does not compile, or its input or mocks cannot be read) fails.
            With --inject-failures the summary is compared with X.failures.golden where there is one.
            """)

    static let store = CommandSpec(
        name: "store", abstract: "Check or rewrite the file store of 'sagarun run --store'.",
        usage: "sagarun store <subcommand> [<dir>] [options]", arguments: [], flags: [], options: [],
        discussion: """
            Each takes the store's folder (default: .sagastore). Exit codes: 0 success, 64 bad
            usage, 66 no store in the folder (or no folder), 74 a store that is damaged, in use,
            newer, unreadable or cannot be written.
            See 'sagarun store <subcommand> --help' for detailed help.
            """,
        subcommands: [
            ("verify", "Check every file of a store without changing it; print a report."),
            ("compact", "Rewrite a store as one snapshot and an empty log."),
            ("recover", "Rebuild a damaged store from every record whose checksum holds."),
        ])

    static let storeVerify = CommandSpec(
        name: "store verify",
        abstract: "Check a file store without changing it: headers, checksums, sequence numbers, snapshot counts.",
        usage: "sagarun store verify [<dir>] [--format text|json]",
        arguments: [("<dir>", "The store's folder (default: .sagastore).")],
        flags: [],
        options: [
            .init(
                name: "--format", valueName: "format",
                help: "text (default) or json (one document on standard output).")
        ],
        discussion: """
            Prints the files, their records or elements, the elements per entity and the last
            record's sequence number. A torn tail (a write never acknowledged, or zeros the log was
            extended by before a crash) and leftovers of an
            interrupted snapshot are warnings: opening the store repairs them and loses nothing.
            Damage is an error naming the file and offset, exit code 74. The store is read under
            a shared lock: a running 'sagarun run' on it makes verify exit 74 naming its pid.
            """)

    static let storeRecover = CommandSpec(
        name: "store recover",
        abstract: "Rebuild a damaged file store from every record whose checksum holds.",
        usage: "sagarun store recover [<dir>]",
        arguments: [("<dir>", "The store's folder (default: .sagastore).")],
        flags: [],
        options: [],
        discussion: """
            For a store that 'verify' and 'run' refuse as damaged (two processes wrote its log,
            a disk lost a block): reads the newest snapshot and every log segment after it,
            record by record in file order, passing over the bytes that hold no whole record,
            and writes the result as a new snapshot and an empty log. The old files are then
            kept, renamed 'before-recover-…', which the store does not read: a save or delete
            whose record was damaged is not in the recovered store, and may still be got from
            them. Remove them once nothing in them is wanted. Takes the store's lock: exit 74
            while a run holds it.
            """)

    static let storeCompact = CommandSpec(
        name: "store compact",
        abstract: "Rewrite a file store as one snapshot and an empty log, and report its size before and after.",
        usage: "sagarun store compact [<dir>]",
        arguments: [("<dir>", "The store's folder (default: .sagastore).")],
        flags: [],
        options: [],
        discussion: """
            Opens the store as 'run' does (taking its lock, cutting a torn tail), writes every
            element to a new snapshot under a temporary name, syncs it, renames it into place and
            syncs the folder before removing older files: a crash at any point leaves a store
            that opens with every acknowledged write. A damaged store is refused and left as it is.
            """)
}
