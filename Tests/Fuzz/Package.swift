// swift-tools-version:6.0
// The libFuzzer targets of Sagas: a package of its own, so that the main package's plain
// `swift build` and `swift test` never try to link an executable whose `main` only libFuzzer
// provides. Build and run them with `Sources/sagabench/Scripts/fuzz.sh` (see README.md here).
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which is whatever the clone is called.
// This file is Tests/Fuzz/Package.swift: the root package is two folders up.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let sagas = root.lastPathComponent

let package = Package(
    name: "SagasFuzz",
    products: [
        .executable(name: "FuzzJSON", targets: ["FuzzJSON"]),
        .executable(name: "FuzzParser", targets: ["FuzzParser"]),
        .executable(name: "FuzzChecker", targets: ["FuzzChecker"]),
        .executable(name: "FuzzInterpreter", targets: ["FuzzInterpreter"]),
    ],
    dependencies: [.package(path: "../..")],
    targets: [
        // JSONReader: strict JSON text to a Value, and the canonical writer back.
        .executableTarget(name: "FuzzJSON", dependencies: [.product(name: "SagaCore", package: sagas)]),
        // Lexer and parser (with the AST dump and the formatter, which read the same tokens).
        .executableTarget(
            name: "FuzzParser",
            dependencies: [.product(name: "SagaCore", package: sagas), .product(name: "SagaLanguage", package: sagas)]
        ),
        // The whole front end: parse, check, render the diagnostics.
        .executableTarget(
            name: "FuzzChecker",
            dependencies: [.product(name: "SagaCore", package: sagas), .product(name: "SagaLanguage", package: sagas)]
        ),
        // A program and its input lines, run on the virtual clock with step budgets.
        .executableTarget(
            name: "FuzzInterpreter",
            dependencies: [
                .product(name: "SagaCore", package: sagas), .product(name: "SagaLanguage", package: sagas),
                .product(name: "SagaRuntime", package: sagas), .product(name: "SagaPersistence", package: sagas),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
