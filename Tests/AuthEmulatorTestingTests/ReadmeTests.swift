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

    /// The README's table of line counts is the count of the two flow files' test bodies.
    @Test func theLineCountsOfTheSeedsFlowsAreTheFiles() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let kit = try Self.bodyLengths(in: "SeedFlowTests.swift")
        let raw = try Self.bodyLengths(in: "RawURLSessionFlowTests.swift")
        #expect(kit.count == 6 && Set(kit.keys) == Set(raw.keys))
        // Rows whose last two cells are numbers: one per flow, then the total.
        var counts: [[Int]] = []
        for line in readme.components(separatedBy: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count == 3, let withKit = Int(cells[1]), let withURLSession = Int(cells[2]) {
                counts.append([withKit, withURLSession])
            }
        }
        let expected = kit.keys.map { [kit[$0]!, raw[$0]!] }
        let byValue = { (left: [Int], right: [Int]) in left.lexicographicallyPrecedes(right) }
        #expect(counts.dropLast().sorted(by: byValue) == expected.sorted(by: byValue), "README \(counts), files \(expected)")
        #expect(counts.last == [kit.values.reduce(0, +), raw.values.reduce(0, +)])
    }

    /// Each test's lines inside `withFreshState { emulator in … }`, blank and comment lines left out.
    static func bodyLengths(in file: String) throws -> [String: Int] {
        let lines = try String(contentsOf: testsFolder.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
        var lengths: [String: Int] = [:]
        var name: String?
        var depth = 0
        var count = 0
        for line in lines {
            let code = line.trimmingCharacters(in: .whitespaces)
            if let range = code.range(of: "@Test func ") {
                name = String(code[range.upperBound...].prefix { $0 != "(" })
            } else if name != nil, depth == 0, code.contains("withFreshState { emulator in") {
                depth = 1
                count = 0
            } else if depth > 0 {
                depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
                if depth <= 0 {
                    lengths[name!] = count
                    name = nil
                    depth = 0
                } else if !code.isEmpty, !code.hasPrefix("//") {
                    count += 1
                }
            }
        }
        return lengths
    }
}
