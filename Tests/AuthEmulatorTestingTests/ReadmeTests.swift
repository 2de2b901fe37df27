import Foundation
import Testing

/// The README's Swift examples are the compiled ones: each ```swift block (but those fenced
/// ```swift no-check, which need an iOS simulator or a backend of the reader's) must appear
/// verbatim in ReadmeExamples.swift, which runs.
@Suite struct ReadmeTests {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let readme = testsFolder.appendingPathComponent("../../Sources/AuthEmulatorTesting/README.md").standardized

    @Test func everySwiftBlockOfTheReadmeIsCompiledAndRun() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let examples = try String(contentsOf: Self.testsFolder.appendingPathComponent("ReadmeExamples.swift"), encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in readme.components(separatedBy: "\n") {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        #expect(blocks.count >= 4)
        for block in blocks {
            // Imports are the file's own, at its top.
            let code = block.split(separator: "\n", omittingEmptySubsequences: false)
                .drop { $0.hasPrefix("import ") || $0.isEmpty }.joined(separator: "\n")
            #expect(examples.contains(code), "README block not in ReadmeExamples.swift:\n\(block)")
        }
    }

    @Test func theFirstTestIsAtMostFifteenLines() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let first = try #require(readme.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "\n```").first)
        #expect(first.split(separator: "\n").count <= 15)
        #expect(first.contains("import AuthEmulatorTesting") && first.contains("@Test"))
    }
}
