#if canImport(FoundationEssentials)
import FoundationEssentials  // Foundation's core alone: not its ICU data and locale code
#else
import Foundation
#endif
import HTML
import JSON

/// `/emulator/action`: where a person (or a test) lands from an email's link (reference §5.5). A
/// browser (`Accept: text/html`) gets pages and a password form that work without JavaScript;
/// any other client gets the official emulator's JSON and redirects.
enum EmailActionPage {
    /// What one visit comes to, before it is shown as JSON or HTML.
    private enum Outcome {
        case success(title: String, fields: JSONObject)
        case failure(status: Int, fields: JSONObject)
        case redirect(String)
        case passwordForm(email: String?, action: String, hidden: [(String, String)])
        case signInLink(email: String?, continueTo: String, oobCode: String)
        case apiError(AuthError)
    }

    static func run(_ request: OperationRequest) throws -> OperationResult {
        let outcome = try decide(request)
        return request.acceptsHTML ? page(outcome) : json(outcome)
    }

    private static func parameter(_ request: OperationRequest, _ name: String) -> String? {
        let value = request.body.value(name)?.stringValue ?? request.queryValue(name)
        return value?.isEmpty == false ? value : nil
    }

    private static func decide(_ request: OperationRequest) throws -> Outcome {
        guard parameter(request, "apiKey") != nil else {
            return .failure(status: 400, fields: [
                "error": "missing apiKey query parameter",
                "instructions": "Please modify the URL to specify an apiKey, such as ...&apiKey=YOUR_API_KEY",
            ])
        }
        guard let code = parameter(request, "oobCode") else {
            return .failure(status: 400, fields: [
                "error": "missing oobCode query parameter",
                "instructions": "Please modify the URL to specify an oobCode, such as ...&oobCode=YOUR_OOB_CODE",
            ])
        }
        let continueUrl = parameter(request, "continueUrl")
        switch parameter(request, "mode") {
        case "signIn":
            guard let continueUrl else {
                return .failure(status: 400, fields: [
                    "error": "Missing continueUrl query parameter",
                    "instructions": "To sign in, append &continueUrl=YOUR_APP_URL to the link.",
                ])
            }
            // Not used here: the app signs in with it. Every other parameter goes along.
            let passed = request.query.filter { $0.name != "continueUrl" }
            let email = try? request.read { try $0.store.oobCodes.code(code, in: $0.scope)?.email }
            return .signInLink(email: email ?? nil, continueTo: merging(passed, into: continueUrl), oobCode: code)
        case "resetPassword":
            let expired: JSONObject = [
                "error": "Your request to reset your password has expired or the link has already been used.",
                "instructions": "Try resetting your password again.",
            ]
            guard let newPassword = parameter(request, "newPassword") else {
                guard let record = try? request.read({ try $0.oobCode(code, ofType: .passwordReset) }) else {
                    return .failure(status: 400, fields: expired)
                }
                if request.acceptsHTML {
                    let keep = ["apiKey", "oobCode", "mode", "continueUrl", "tenantId", "lang"].compactMap { name in
                        parameter(request, name).map { (name, $0) }
                    }
                    return .passwordForm(email: record.email, action: "/emulator/action", hidden: keep)
                }
                return .failure(status: 400, fields: [
                    "error": "missing newPassword query parameter",
                    "instructions": .string(
                        "To reset the password for \(record.email ?? "this account"), send an HTTP GET request to the following URL."),
                    "instructions2": "You may use a web browser or any HTTP client, such as curl.",
                    "urlTemplate": .string("\(record.oobLink)&newPassword=NEW_PASSWORD_HERE"),
                ])
            }
            guard newPassword != "NEW_PASSWORD_HERE" else {
                return .failure(status: 400, fields: [
                    "error": "newPassword must be something other than 'NEW_PASSWORD_HERE'",
                    "instructions": "The string 'NEW_PASSWORD_HERE' is just a placeholder. Please change the URL parameter to the new password you want.",
                ])
            }
            let email: String
            do {
                email = try request.write { transaction in
                    try ResetPassword.resetPassword(try transaction.oobCode(code, ofType: .passwordReset), to: newPassword, in: transaction)
                }
            } catch let error as AuthError where error.message.hasPrefix("WEAK_PASSWORD") {
                // The official emulator answers this one as the API's usual error JSON.
                return .apiError(error)
            } catch is AuthError {
                return .failure(status: 400, fields: expired)
            }
            if let continueUrl { return .redirect(continueUrl) }
            return .success(title: "Password changed", fields: [
                "success": "The password has been successfully updated.", "email": .string(email),
            ])
        case "verifyEmail", "verifyAndChangeEmail", "recoverEmail":
            return try apply(request, code: code, mode: parameter(request, "mode") ?? "", continueUrl: continueUrl)
        default:
            return .failure(status: 400, fields: ["error": "Invalid mode"])
        }
    }

    /// The codes `accounts:update` applies, with the page's own words for success and failure.
    private static func apply(_ request: OperationRequest, code: String, mode: String, continueUrl: String?) throws -> Outcome {
        let (expected, title, success, failure, retry): (OobRequestType, String, String, String, String) =
            switch mode {
            case "verifyEmail":
                (.verifyEmail, "Email verified", "The email has been successfully verified.",
                 "Your request to verify your email has expired or the link has already been used.", "Try verifying your email again.")
            case "verifyAndChangeEmail":
                (.verifyAndChangeEmail, "Email changed", "The email has been successfully changed.",
                 "Your request to change your email has expired or the link has already been used.", "Try changing your email again.")
            default:
                (.recoverEmail, "Email restored", "The email has been successfully reset.",
                 "Your request to revert your email has expired or the link has already been used.", "Try resetting your email again.")
            }
        let failed = Outcome.failure(status: 400, fields: ["error": .string(failure), "instructions": .string(retry)])
        guard let record = try? request.read({ try $0.oobCode(code, ofType: nil) }) else { return failed }
        guard record.requestType == expected else {
            return .failure(status: 400, fields: [
                "error": "Requested mode does not match the OOB code provided.", "instructions": .string(retry),
            ])
        }
        guard let applied = try? ApplyOobCode.run(request, code: code) else { return failed }
        if let continueUrl { return .redirect(continueUrl) }
        var fields: JSONObject = ["success": .string(success)]
        if expected == .verifyAndChangeEmail {
            fields.setIfPresent("newEmail", applied["newEmail"])
        } else {
            fields.setIfPresent("email", applied["email"])
        }
        return .success(title: title, fields: fields)
    }

    /// `continueUrl` with `parameters` added to its query (theirs win over its own of the same name).
    static func merging(_ parameters: [(name: String, value: String)], into url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        var items = components.queryItems ?? []
        let names = Set(parameters.map(\.name))
        items.removeAll { names.contains($0.name) }
        items += parameters.map { URLQueryItem(name: $0.name, value: $0.value) }
        components.queryItems = items
        return components.string ?? url
    }

    // MARK: Rendering

    private static func json(_ outcome: Outcome) -> OperationResult {
        switch outcome {
        case .success(_, let fields): return .json(["authEmulator": .object(fields)])
        case .failure(let status, let fields): return .json(["authEmulator": .object(fields)], status: status)
        case .redirect(let location): return .redirect(location: location)
        case .signInLink(_, let continueTo, _): return .redirect(location: continueTo)
        case .passwordForm: return .json(["authEmulator": ["error": "missing newPassword query parameter"]], status: 400)
        case .apiError(let error): return ResponseRenderer.failure(error)
        }
    }

    private static func page(_ outcome: Outcome) -> OperationResult {
        switch outcome {
        case .success(let title, let fields):
            let detail = fields["email"]?.stringValue ?? fields["newEmail"]?.stringValue
            return .html(layout(title, "<p>\(fields["success"]?.stringValue)</p>" + (detail.map { "<p><strong>\($0)</strong></p>" } ?? "")))
        case .failure(let status, let fields):
            return .html(
                layout("Something went wrong", "<p role=\"alert\">\(fields["error"]?.stringValue)</p><p>\(fields["instructions"]?.stringValue)</p>"),
                status: status)
        case .redirect(let location):
            return .redirect(location: location)
        case .apiError(let error):
            return .html(layout("Something went wrong", "<p role=\"alert\">\(error.message)</p>"), status: error.httpStatus)
        case .passwordForm(let email, let action, let hidden):
            let fields = HTML.joined(hidden.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\($0.1)\">" })
            let body: HTML = """
                <p>Reset the password for <strong>\(email ?? "this account")</strong>.</p>
                <form method="post" action="\(action)">\(fields)
                <label>New password <input type="password" name="newPassword" minlength="6" required autocomplete="new-password"></label>
                <button type="submit">Save</button>
                </form>
                """
            return .html(layout("Reset your password", body))
        case .signInLink(let email, let continueTo, let oobCode):
            let body: HTML = """
                <p>This is an email sign-in link\(email.map { " for \($0)" } ?? ""). The app finishes the sign-in with its code.</p>
                <p class="code">oobCode: <code>\(oobCode)</code></p>
                <p><a class="button" href="\(continueTo)">Continue to the app</a></p>
                <p class="small">\(continueTo)</p>
                """
            return .html(layout("Sign in", body))
        }
    }

    private static func layout(_ title: String, _ content: HTML) -> HTML {
        HTML.page(
            title: "\(title) · Auth Emulator",
            style: """
                body{font:16px/1.45 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
                main{max-width:32rem;margin:0 auto;padding:1.25rem}.small,.code{font-size:.85rem;word-break:break-all;color:#555}
                label{display:block;margin:.75rem 0}input{display:block;width:100%;box-sizing:border-box;padding:.45rem}
                button,a.button{display:inline-block;margin-top:.5rem;padding:.6rem 1rem;background:#1a73e8;color:#fff;border:0;border-radius:6px;text-decoration:none;font:inherit}
                """,
            body: "<main><p class=\"small\">Auth Emulator</p><h1>\(title)</h1>\(content)</main>")
    }
}
