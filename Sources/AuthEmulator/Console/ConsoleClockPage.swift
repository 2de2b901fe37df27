import HTML
import JSON

/// The emulator clock: what time it is for tokens and codes, how far ahead of real time in words,
/// a form that moves it forward, one that sets it to a date (`clock:set`), and one that resets it
/// to real time.
enum ConsoleClockPage {
    static let units: [(name: String, seconds: Double)] = [("seconds", 1), ("minutes", 60), ("hours", 3600), ("days", 86_400)]

    static func show(_ request: OperationRequest) throws -> OperationResult {
        page(ConsoleContext(request), form: nil)
    }

    /// The page; `form` is a refused post, drawn as it was typed.
    static func page(_ context: ConsoleContext, form refused: ConsoleForm?) -> OperationResult {
        let clock = context.environment.clock
        let offset = clock.offset
        let now = clock.now()
        let ahead: HTML = offset == 0
            ? "<span class=\"clock-offset\" id=\"clock-offset\">in step with real time</span>"
            : "<span class=\"clock-offset\" id=\"clock-offset\" title=\"\(JSONValue.double(Double(offset) / 1000).compactString) s\">\(ConsoleLayout.duration(milliseconds: offset)) ahead</span>"
        let reset: HTML = offset == 0 ? "" : context.form("/clock", class: "card", """
            <input type="hidden" name="action" value="reset">
            <p>Back to real time: tokens and codes issued while the clock was ahead keep the times they carry, so they may
            read as issued in the future and stay valid longer than usual.</p>
            <div class="actions"><button type="submit">Reset to real time</button></div>
            """)
        let advance = (refused ?? ConsoleForm("advance")).form("advance")
        let set = (refused ?? ConsoleForm("set")).form("set")
        let content: HTML = """
            \(ConsoleLayout.details([
                ("Emulator time", "<strong id=\"clock-now\">\(now.rfc3339)</strong>"),
                ("Compared with real time", ahead),
                ("Real time", "<span id=\"clock-real\">\(Instant(millisecondsSinceEpoch: now.millisecondsSinceEpoch - offset).rfc3339)</span>"),
            ]))
            <p class="muted">Token, code and session expiry follow this clock.</p>
            <div class="cards">
            \(context.form("/clock", class: "card", """
            <input type="hidden" name="action" value="advance">
            \(advance.formNote(fields: ["amount", "unit"]))
            <div class="grid">
            \(advance.input("Advance by", "amount", type: "number", value: "1", attributes: " min=\"0\" step=\"any\" required"))
            \(advance.select("Unit", "unit", units.map { ($0.name, $0.name) }))
            </div>
            <div class="actions"><button type="submit" class="primary">Advance the clock</button></div>
            """))
            \(context.form("/clock", class: "card", """
            <input type="hidden" name="action" value="set">
            \(set.formNote(fields: ["time"]))
            \(set.input("Set to (UTC)", "time", type: "datetime-local", value: String(now.adding(seconds: 86_400).rfc3339.prefix(16)), attributes: " step=\"1\" required"))
            <div class="actions"><button type="submit" class="primary">Set the clock</button></div>
            """))
            </div>
            \(reset)
            """
        return ConsoleLayout.page(context, .clock, title: "Clock", content)
    }

    static func advance(_ request: OperationRequest) throws -> OperationResult {
        try ConsoleContext.post(request, back: .init(path: "/clock"), again: page) { context, form in
            switch try form.string("action") ?? "advance" {
            case "reset":
                let answer = try ClockOperations.reset(context.operationRequest([:]))
                return ("Reset the clock to real time: it is now \(answer["now"]?.stringValue ?? "").", nil)
            case "set":
                let time = try time(form)
                let answer = try ConsoleProblem.about("time") { try ClockOperations.set(context.operationRequest(["time": .string(time)])) }
                let ahead = ConsoleLayout.duration(milliseconds: context.environment.clock.offset)
                return ("Set the clock: it is now \(answer["now"]?.stringValue ?? ""), \(ahead) ahead.", nil)
            default:
                guard let amount = Double(try form.string("amount") ?? ""), amount.isFinite else {
                    throw ConsoleProblem(field: "amount", "Enter how far to move the clock, as a number.")
                }
                let unit = try form.string("unit") ?? "seconds"
                guard let scale = units.first(where: { $0.name == unit })?.seconds else {
                    throw ConsoleProblem(field: "unit", "Choose seconds, minutes, hours or days.")
                }
                let answer = try ConsoleProblem.about("amount") {
                    try ClockOperations.advance(context.operationRequest(["seconds": .double(amount * scale)]))
                }
                let ahead = ConsoleLayout.duration(milliseconds: context.environment.clock.offset)
                return ("Advanced the clock by \(JSONValue.double(amount).compactString) \(unit): it is now \(answer["now"]?.stringValue ?? ""), \(ahead) ahead.", nil)
            }
        }
    }

    /// The form's date and time as RFC 3339: a browser's `datetime-local` value
    /// (`2030-01-01T09:00`, seconds optional) is UTC here; a full RFC 3339 value is taken as it is.
    private static func time(_ form: RequestBody) throws -> String {
        let text = (try form.string("time") ?? "").trimmingWhitespace()
        guard !text.isEmpty else { throw ConsoleProblem(field: "time", "Enter a date and time to set the clock to.") }
        let local = text.utf8.count == 16 ? text + ":00" : text
        let withZone = local.utf8.count == 19 ? local + "Z" : local
        guard RFC3339.parse(withZone) != nil else {
            throw ConsoleProblem(field: "time", "Enter a date and time such as 2030-01-01T09:00 (UTC), not “\(text.prefix(64))”.")
        }
        return withZone
    }
}
