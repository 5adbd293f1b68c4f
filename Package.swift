// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Sagas",
    products: [
        .library(name: "SagaCore", targets: ["SagaCore"]),
        .library(name: "SagaStore", targets: ["SagaStore"]),
        .library(name: "SagaLanguage", targets: ["SagaLanguage"]),
        .library(name: "SagaRuntime", targets: ["SagaRuntime"]),
        .library(name: "SagaPersistence", targets: ["SagaPersistence"]),
        .library(name: "SagaTesting", targets: ["SagaTesting"]),
        .library(name: "SagaHostLibrary", targets: ["SagaHostLibrary"]),
        .executable(name: "sagarun", targets: ["sagarun"]),
        .executable(name: "sagabench", targets: ["sagabench"]),
    ],
    targets: [
        // The dynamic value, canonical JSON, source locations and diagnostics.
        .target(name: "SagaCore"),
        // A generic Redux store: reducers, middleware, the dispatch queue.
        .target(name: "SagaStore"),
        // Lexer, parser, AST and checker of the .saga language.
        .target(name: "SagaLanguage", dependencies: ["SagaCore"]),
        // The interpreter: scheduler, tasks, effects, clocks, channels. README.md: how it works;
        // SagaRuntime.docc: sagas in a Swift app.
        .target(name: "SagaRuntime", dependencies: ["SagaCore", "SagaStore", "SagaLanguage"], exclude: ["README.md"]),
        // The file store, the memory store, queries, the persistence middleware.
        .target(name: "SagaPersistence", dependencies: ["SagaCore", "SagaStore"]),
        // HTTP, processes, files and the environment for sagas, behind Deno-like permissions.
        .target(name: "SagaHostLibrary", dependencies: ["SagaCore", "SagaRuntime"]),
        // The commands of `sagarun` as a library, so tests can run them in-process.
        .target(
            name: "SagaCommandLine",
            dependencies: ["SagaCore", "SagaLanguage", "SagaStore", "SagaRuntime", "SagaPersistence", "SagaHostLibrary"]),
        .executableTarget(name: "sagarun", dependencies: ["SagaCommandLine"]),
        // Golden-file tests of an app's sagas from its own test target.
        .target(name: "SagaTesting", dependencies: ["SagaCommandLine", "SagaRuntime"]),
        // README.md: the performance figures and how to reproduce them. Scripts/: the comparisons
        // (other builds, redux-saga, SQLite), callgrind, fuzzing and crash-soak scripts.
        .executableTarget(
            name: "sagabench",
            dependencies: ["SagaCore", "SagaStore", "SagaLanguage", "SagaRuntime", "SagaPersistence", "SagaCommandLine"],
            exclude: ["README.md", "Scripts"]),
        // The example app: a small music library (its logic, and a thin command line).
        .target(name: "MusicLibraryApp", dependencies: ["SagaCore", "SagaStore", "SagaLanguage", "SagaRuntime", "SagaPersistence"]),
        .executableTarget(name: "MusicLibrary", dependencies: ["MusicLibraryApp"]),
        // What several test targets share: a seeded random number generator, a gate.
        .target(name: "SagaTestSupport", path: "Tests/SagaTestSupport"),
        // FuzzRegressions/: inputs the fuzzers (Tests/Fuzz/) kept, replayed by FuzzRegressionTests.
        .testTarget(
            name: "SagaCoreTests", dependencies: ["SagaCore", "SagaTestSupport"], exclude: ["FuzzRegressions"]),
        .testTarget(name: "SagaStoreTests", dependencies: ["SagaStore"]),
        .testTarget(
            name: "SagaLanguageTests", dependencies: ["SagaCore", "SagaLanguage", "SagaTestSupport", "SagaHostLibrary"]),
        .testTarget(
            name: "SagaRuntimeTests", dependencies: ["SagaCore", "SagaLanguage", "SagaRuntime", "SagaTestSupport"],
            exclude: ["FuzzRegressions"]),
        .testTarget(name: "SagaCommandLineTests", dependencies: ["SagaCommandLine", "SagaPersistence", "SagaTestSupport"]),
        .testTarget(name: "SagaPersistenceTests", dependencies: ["SagaPersistence", "SagaTestSupport"]),
        .testTarget(name: "SagaCrashTests", dependencies: ["SagaPersistence", "SagaTestSupport"]),
        .testTarget(name: "GoldenTests", dependencies: ["SagaCommandLine"]),
        // Golden/: the app's saga's input and transcript, read by LibrarySagaGoldenTests.
        .testTarget(name: "MusicLibraryTests", dependencies: ["MusicLibraryApp", "SagaTesting"], exclude: ["Golden"]),
        .testTarget(
            name: "SagaEmbeddingTests",
            dependencies: ["SagaCore", "SagaLanguage", "SagaPersistence", "SagaRuntime", "SagaStore"]),
        .testTarget(name: "SagaHostLibraryTests", dependencies: ["SagaCore", "SagaRuntime", "SagaHostLibrary"]),
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["SagaCore", "SagaLanguage", "SagaPersistence", "SagaRuntime", "SagaStore"]),
    ],
    swiftLanguageModes: [.v6]
)
