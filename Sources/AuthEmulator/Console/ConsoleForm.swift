import HTML

/// One form of a console page, as it is drawn: fresh, or again after a refused post with what the
/// person typed and what was wrong, in words, beside the field it concerns (`aria-invalid`, the
/// sentence in the field's label). A page with several forms tells them apart by `action`, the
/// hidden field each posts.
struct ConsoleForm {
    /// The form this is (its `action`).
    let action: String
    /// The posted values when this form was the one refused; nil when it is drawn fresh.
    private let posted: [String: String]?
    let problem: ConsoleProblem?

    /// `action`'s form, fresh.
    init(_ action: String) {
        self.action = action
        posted = nil
        problem = nil
    }

    /// The refused post of `action`: its fields as sent and the problem.
    init(_ action: String, posted body: RequestBody, problem: ConsoleProblem) {
        self.action = action
        var values: [String: String] = [:]
        for (name, value) in body.object.members { values[name] = value.stringValue }
        posted = values
        self.problem = problem
    }

    /// The same refused post, seen from the page's form `action`: only the form that was posted
    /// keeps its values and shows the problem; the page's other forms are drawn fresh.
    func form(_ action: String) -> ConsoleForm {
        action == self.action ? self : ConsoleForm(action)
    }

    // MARK: Values

    /// What the person typed in `name`, or `fallback` on a fresh form.
    func value(_ name: String, else fallback: String? = nil) -> String? {
        guard let posted else { return fallback }
        return posted[name]
    }

    /// A checkbox: as posted (absent is unchecked), or `fallback` on a fresh form.
    func isChecked(_ name: String, else fallback: Bool) -> Bool {
        guard let posted else { return fallback }
        return posted[name] != nil
    }

    // MARK: Fields

    /// `<label>Label <input …><span class="field-error">…</span></label>`, the value kept.
    func input(
        _ label: HTML, _ name: String, type: String = "text", value fallback: String? = nil, placeholder: String? = nil,
        attributes: HTML = ""
    ) -> HTML {
        let placeholderAttribute: HTML = placeholder.map { " placeholder=\"\($0)\"" } ?? ""
        return """
            <label\(fieldClass(name))>\(label) <input type="\(type)" name="\(name)" value="\(value(name, else: fallback))"\
            \(placeholderAttribute)\(invalid(name))\(attributes)>\(note(for: name))</label>
            """
    }

    func textarea(_ label: HTML, _ name: String, value fallback: String? = nil, rows: Int = 3, placeholder: String? = nil) -> HTML {
        let placeholderAttribute: HTML = placeholder.map { " placeholder=\"\($0)\"" } ?? ""
        return """
            <label\(fieldClass(name))>\(label) <textarea name="\(name)" rows="\(rows)" class="mono"\(placeholderAttribute)\(invalid(name))>\
            \(value(name, else: fallback))</textarea>\(note(for: name))</label>
            """
    }

    func checkbox(_ label: HTML, _ name: String, checked fallback: Bool = false, classes: String? = nil) -> HTML {
        let checked: HTML = isChecked(name, else: fallback) ? " checked" : ""
        let extra: HTML = classes.map { " \($0)" } ?? ""
        return "<label class=\"check\(extra)\"><input type=\"checkbox\" name=\"\(name)\"\(checked)> \(label)</label>"
    }

    /// A `<select>` of `(value, label)` options, the posted (or `fallback`) one selected.
    func select(_ label: HTML, _ name: String, _ options: [(value: String, label: String)], selected fallback: String? = nil) -> HTML {
        let chosen = value(name, else: fallback)
        let items = HTML.joined(options.map { option -> HTML in
            let selected: HTML = option.value == chosen ? " selected" : ""
            return "<option value=\"\(option.value)\"\(selected)>\(option.label)</option>"
        })
        return "<label\(fieldClass(name))>\(label) <select name=\"\(name)\"\(invalid(name))>\(items)</select>\(note(for: name))</label>"
    }

    /// The problem when it concerns none of `fields` (the form's own): shown at the form's top.
    func formNote(fields: [String]) -> HTML {
        guard let problem, problem.field.map({ !fields.contains($0) }) ?? true else { return "" }
        return "<p class=\"form-error\" role=\"alert\">\(problem.words)\(code(problem))</p>"
    }

    private func note(for name: String) -> HTML {
        guard let problem, problem.field == name else { return "" }
        return "<span class=\"field-error\" role=\"alert\">\(problem.words)\(code(problem))</span>"
    }

    private func code(_ problem: ConsoleProblem) -> HTML {
        problem.code.map { " <code class=\"error-code\">\($0)</code>" } ?? ""
    }

    private func invalid(_ name: String) -> HTML {
        problem?.field == name ? " aria-invalid=\"true\"" : ""
    }

    /// The label of a refused field, marked for the stylesheet.
    private func fieldClass(_ name: String) -> HTML {
        problem?.field == name ? " class=\"invalid\"" : ""
    }
}
