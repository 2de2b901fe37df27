@testable import HTTPServer
import Testing

@Suite struct HTTPHeadersTests {
    /// Lookups fold ASCII case only, find the first of repeated fields, and stay right whatever
    /// the lengths of the fields beside them (the length summary is modulo 64).
    @Test func lookupsFoldCaseAndFindTheFirstField() {
        let long = String(repeating: "x", count: 70)  // 70 = 6 modulo 64, as `origin`
        let headers = HTTPHeaders(collected: [
            (name: "Content-Type", value: "application/json"), (name: long, value: "long"),
            (name: "X-Twice", value: "first"), (name: "x-twice", value: "second"), (name: "Host", value: "h"),
        ])
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["x-TWICE"] == "first")
        #expect(headers["host"] == "h")
        #expect(headers[long.uppercased()] == "long")
        #expect(headers["origin"] == nil)
        #expect(headers["content-typf"] == nil)
        #expect(headers["content_type"] == nil)
        #expect(headers["hosté"] == nil)
        #expect(headers[""] == nil)
        #expect(HTTPHeaders()["host"] == nil)
    }

    /// Only ASCII letters fold: other bytes that differ by 0x20 are different names.
    @Test func onlyLettersFoldCase() {
        #expect(HTTPHeaders.sameName("A-B", "a-b"))
        #expect(!HTTPHeaders.sameName("a\rb", "a-b"))  // 0x0D and 0x2D differ by 0x20
        #expect(!HTTPHeaders.sameName("[", "{"))
        #expect(!HTTPHeaders.sameName("é", "É"))
        #expect(!HTTPHeaders.sameName("ab", "abc"))
    }

    @Test func addAndSetKeepLookupsRight() {
        var headers = HTTPHeaders([("Vary", "Origin")])
        #expect(headers["origin"] == nil)
        headers.add("Origin", "https://a.example")
        #expect(headers["ORIGIN"] == "https://a.example")
        headers.set("origin", "https://b.example")
        #expect(headers["Origin"] == "https://b.example")
        #expect(headers.fields.count == 2)
        headers.set("Access-Control-Allow-Private-Network", "true")
        #expect(headers["access-control-allow-private-network"] == "true")
        #expect(headers["vary"] == "Origin")
    }
}
