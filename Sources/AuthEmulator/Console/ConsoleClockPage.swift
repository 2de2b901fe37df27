import HTML
import JSON

/// The emulator clock: what time it is for tokens and codes, and a form that moves it forward.
enum ConsoleClockPage {
    static let units: [(name: String, seconds: Double)] = [("seconds", 1), ("minutes", 60), ("hours", 3600), ("days", 86_400)]

    static func show(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let clock = context.environment.clock
        let offsetSeconds = Double(clock.offset) / 1000
        let unitOptions = HTML.joined(units.map { "<option value=\"\($0.name)\">\($0.name)</option>" })
        let content: HTML = """
            \(ConsoleLayout.details([
                ("Emulator time", "<strong id=\"clock-now\">\(clock.now().rfc3339)</strong>"),
                ("Ahead of real time by", "\(JSONValue.double(offsetSeconds).compactString) s"),
            ]))
            <p class="muted">Token, code and session expiry follow this clock. It only moves forward.</p>
            \(context.form("/clock", class: "card", """
            <div class="grid">
            <label>Advance by <input type="number" name="amount" min="0" step="any" value="1" required></label>
            <label>Unit <select name="unit">\(unitOptions)</select></label>
            </div>
            <div class="actions"><button type="submit" class="primary">Advance the clock</button></div>
            """))
            """
        return ConsoleLayout.page(context, .clock, title: "Clock", content)
    }

    static func advance(_ request: OperationRequest) throws -> OperationResult {
        try ConsoleContext.post(request, back: .init(path: "/clock")) { context, form in
            guard let amount = Double(try form.string("amount") ?? ""), amount.isFinite else {
                throw AuthError.invalid("INVALID_ARGUMENT : Enter how far to move the clock, as a number.")
            }
            let unit = try form.string("unit") ?? "seconds"
            guard let scale = units.first(where: { $0.name == unit })?.seconds else { throw AuthError.invalid("Unknown unit.") }
            let answer = try ClockOperations.advance(context.operationRequest(["seconds": .double(amount * scale)]))
            return ("Advanced the clock by \(JSONValue.double(amount).compactString) \(unit): it is now \(answer["now"]?.stringValue ?? "").", nil)
        }
    }
}
