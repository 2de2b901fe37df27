import Testing
@Test func placeholder_AuthEmulatorTests() { #expect(Bool(true)) }
