import HTML
import JSON

/// The emulator clock: what time it is for tokens and codes, how far ahead of real time in words,
/// a form that moves it forward and one that resets it to real time.
enum ConsoleClockPage {
    static let units: [(name: String, seconds: Double)] = [("seconds", 1), ("minutes", 60), ("hours", 3600), ("days", 86_400)]

    static func show(_ request: OperationRequest) throws -> OperationResult {
        let context = ConsoleContext(request)
        let clock = context.environment.clock
        let offset = clock.offset
        let unitOptions = HTML.joined(units.map { "<option value=\"\($0.name)\">\($0.name)</option>" })
        let ahead: HTML = offset == 0
            ? "<span class=\"clock-offset\" id=\"clock-offset\">in step with real time</span>"
            : "<span class=\"clock-offset\" id=\"clock-offset\" title=\"\(JSONValue.double(Double(offset) / 1000).compactString) s\">\(ConsoleLayout.duration(milliseconds: offset)) ahead</span>"
        let reset: HTML = offset == 0 ? "" : context.form("/clock", class: "card", """
            <input type="hidden" name="action" value="reset">
            <p>Back to real time: tokens and codes issued while the clock was ahead keep the times they carry, so they may
            read as issued in the future and stay valid longer than usual.</p>
            <div class="actions"><button type="submit">Reset to real time</button></div>
            """)
        let content: HTML = """
            \(ConsoleLayout.details([
                ("Emulator time", "<strong id=\"clock-now\">\(clock.now().rfc3339)</strong>"),
                ("Compared with real time", ahead),
                ("Real time", "<span id=\"clock-real\">\(Instant(millisecondsSinceEpoch: clock.now().millisecondsSinceEpoch - offset).rfc3339)</span>"),
            ]))
            <p class="muted">Token, code and session expiry follow this clock.</p>
            \(context.form("/clock", class: "card", """
            <input type="hidden" name="action" value="advance">
            <div class="grid">
            <label>Advance by <input type="number" name="amount" min="0" step="any" value="1" required></label>
            <label>Unit <select name="unit">\(unitOptions)</select></label>
            </div>
            <div class="actions"><button type="submit" class="primary">Advance the clock</button></div>
            """))
            \(reset)
            """
        return ConsoleLayout.page(context, .clock, title: "Clock", content)
    }

    static func advance(_ request: OperationRequest) throws -> OperationResult {
        try ConsoleContext.post(request, back: .init(path: "/clock")) { context, form in
            if try form.string("action") == "reset" {
                return (try reset(context), nil)
            }
            guard let amount = Double(try form.string("amount") ?? ""), amount.isFinite else {
                throw AuthError.invalid("INVALID_ARGUMENT : Enter how far to move the clock, as a number.")
            }
            let unit = try form.string("unit") ?? "seconds"
            guard let scale = units.first(where: { $0.name == unit })?.seconds else { throw AuthError.invalid("Unknown unit.") }
            let answer = try ClockOperations.advance(context.operationRequest(["seconds": .double(amount * scale)]))
            let ahead = ConsoleLayout.duration(milliseconds: context.environment.clock.offset)
            return ("Advanced the clock by \(JSONValue.double(amount).compactString) \(unit): it is now \(answer["now"]?.stringValue ?? ""), \(ahead) ahead.", nil)
        }
    }

    /// Back to real time, through the clock:reset operation (it saves the offset for `--data`).
    private static func reset(_ context: ConsoleContext) throws -> String {
        let answer = try ClockOperations.reset(context.operationRequest([:]))
        return "Reset the clock to real time: it is now \(answer["now"]?.stringValue ?? "")."
    }
}
