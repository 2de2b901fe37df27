import Foundation
import HTTPTestSupport
import JSON
import Testing

@testable import AuthEmulator

/// The console's forms on a second look, over a real socket: a refused post says what is wrong in
/// words beside the field and keeps what was typed; the new-user form takes only the chosen
/// provider's fields; the clock is set to a date; a user's page links to its mail; the sign-in
/// widget names Apple users and shows who hides their email; `GET /` and the widget's bare error
/// name the console.
@Suite struct ConsoleFormTests {
    typealias Browser = ConsoleTests.Browser

    @Test func aRefusedNewUserKeepsWhatWasTypedAndSaysWhyBesideTheField() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["email": "taken@example.com", "password": "secret123"])
        let browser = Browser(emulator: emulator)
        let typed = [
            ("action", "create"), ("provider", "password"), ("email", "taken@example.com"), ("password", "secret123"),
            ("displayName", "Ada <Lovelace>"), ("claims", #"{"admin": true}"#),
        ]
        let taken = try browser.refused("/emulator/ui/users/new", typed)
        #expect(taken.contains("""
            <label class="invalid">Email <input type="email" name="email" value="taken@example.com" placeholder="ada@example.com" \
            aria-invalid="true"><span class="field-error" role="alert">Another user already has this email. \
            <code class="error-code">EMAIL_EXISTS</code></span></label>
            """))
        #expect(taken.contains("name=\"displayName\" value=\"Ada &lt;Lovelace&gt;\""))
        #expect(taken.contains("<option value=\"password\" selected>"))
        #expect(taken.contains("\">{&quot;admin&quot;: true}</textarea>"))
        #expect(!taken.contains("<p class=\"flash bad\""))

        let claims = try browser.refused("/emulator/ui/users/new", [
            ("action", "create"), ("provider", "apple.com"), ("email", "ada@example.com"), ("claims", "{admin}"),
        ])
        #expect(claims.contains("Custom claims must be a JSON object, such as {&quot;admin&quot;: true}."))
        #expect(claims.contains("<option value=\"apple.com\" data-federated selected>"))
        #expect(claims.contains("aria-invalid=\"true\">{admin}</textarea>"))
        // Nothing was made by either.
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1")

        // A one-button action's refusal goes back with the words and the code in the flash.
        let gone = try browser.post("/emulator/ui/user?uid=nobody", [("action", "disable")])
        #expect(gone.status == 303)
        #expect(ConsoleTests.query(try #require(gone.header("Location")), "error") == "This user does not exist (any more). (USER_NOT_FOUND)")
    }

    @Test func theNewUserFormTakesOnlyTheChosenProvidersFields() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let form = try browser.page("/emulator/ui/users/new")
        #expect(form.contains("<fieldset class=\"for password\"><label>Password <input type=\"password\" name=\"password\""))
        #expect(form.contains("<fieldset class=\"for password phone\"><label>Phone number"))
        #expect(form.contains("<fieldset class=\"for federated apple-only\"><label class=\"check\"><input type=\"checkbox\" name=\"hideEmail\">"))
        #expect(form.contains("<fieldset class=\"for federated other-only\"><label>Provider id"))

        // What the chosen provider does not take is not used, whatever was left in the hidden fields.
        let apple = try browser.submit("/emulator/ui/users/new", [
            ("action", "create"), ("provider", "apple.com"), ("email", "ada@example.com"), ("emailVerified", "on"),
            ("password", "secret123"), ("phoneNumber", "+16505550101"), ("uid", "chosen-uid"), ("displayName", "Ada"),
        ])
        let appleId = try #require(ConsoleTests.query(apple.location, "uid"))
        #expect(appleId != "chosen-uid")
        let user = try #require(try browser.user(appleId))
        #expect(user["phoneNumber"] == nil)
        #expect(user["passwordHash"] == nil)
        #expect(user["displayName"] == "Ada")
        let phone = try browser.submit("/emulator/ui/users/new", [
            ("action", "create"), ("provider", "phone"), ("phoneNumber", "+16505550102"), ("email", "left@example.com"), ("sub", "x"),
        ])
        let phoneId = try #require(ConsoleTests.query(phone.location, "uid"))
        let phoneUser = try #require(try browser.user(phoneId))
        #expect(phoneUser["email"] == nil)
        #expect(phoneUser["phoneNumber"] == "+16505550102")

        // Another provider id, typed in.
        let other = try browser.submit("/emulator/ui/users/new", [
            ("action", "create"), ("provider", "other"), ("otherProvider", "oidc.Example"), ("email", "o@example.com"), ("emailVerified", "on"),
        ])
        #expect(other.page.contains("(oidc.example)."))
        let missing = try browser.refused("/emulator/ui/users/new", [("action", "create"), ("provider", "other")])
        #expect(missing.contains("Enter the provider id, such as oidc.example."))
    }

    @Test func theClockIsSetToADate() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        let page = try browser.page("/emulator/ui/clock")
        // Offered a day ahead, to the minute, in the browser's date and time field.
        #expect(page.contains("<input type=\"datetime-local\" name=\"time\" value=\"2023-11-15T22:13\" step=\"1\" required>"))
        let set = try browser.submit("/emulator/ui/clock", [("action", "set"), ("time", "2030-01-01T09:00")])
        #expect(set.page.contains("Set the clock: it is now 2030-01-01T09:00:00.000Z"))
        #expect(try emulator.send("GET", "/emulator/v1/clock")["now"] == "2030-01-01T09:00:00.000Z")
        _ = try browser.submit("/emulator/ui/clock", [("action", "set"), ("time", "2031-05-01T12:00:00+09:00")])
        #expect(try emulator.send("GET", "/emulator/v1/clock")["now"] == "2031-05-01T03:00:00.000Z")

        let past = try browser.refused("/emulator/ui/clock", [("action", "set"), ("time", "2001-01-01T00:00")])
        #expect(past.contains("name=\"time\" value=\"2001-01-01T00:00\""))
        #expect(past.contains("<span class=\"field-error\" role=\"alert\">time 2001-01-01T00:00:00.000Z is earlier than real time"))
        let garbage = try browser.refused("/emulator/ui/clock", [("action", "set"), ("time", "soon")])
        #expect(garbage.contains("Enter a date and time such as 2030-01-01T09:00 (UTC), not “soon”."))
        #expect(try emulator.send("GET", "/emulator/v1/clock")["now"] == "2031-05-01T03:00:00.000Z")
    }

    @Test func aUsersPageLinksToItsMail() throws {
        let emulator = try TestEmulator()
        let created = try emulator.admin("accounts", ["email": "ada@example.com", "password": "secret123", "phoneNumber": "+16505550101"])
        let uid = try #require(created["localId"]?.stringValue)
        let page = try Browser(emulator: emulator).page("/emulator/ui/user?uid=\(uid)")
        #expect(page.contains("<a class=\"button\" href=\"/emulator/ui/outbox?to=ada%40example.com\" id=\"user-mail\">Mail to ada@example.com »</a>"))
        #expect(page.contains("href=\"/emulator/ui/outbox?to=%2B16505550101\" id=\"user-mail\">Texts to +16505550101 »</a>"))
    }

    @Test func theWidgetNamesAppleUsersAndShowsWhoHidesTheirEmail() throws {
        let emulator = try TestEmulator()
        let browser = Browser(emulator: emulator)
        // An Apple user made the way an app makes one: the name beside the token, once.
        _ = try browser.submit("/emulator/ui/users/new", [
            ("action", "create"), ("provider", "apple.com"), ("email", "ada@example.com"), ("displayName", "Ada Lovelace"),
            ("hideEmail", "on"), ("emailVerified", "on"),
        ])
        let widget = try browser.page("/emulator/auth/handler?apiKey=k&providerId=apple.com&appName=app&authType=signInViaPopup")
        #expect(widget.contains("<span class=\"mdc-list-item__primary-text\">Ada Lovelace</span>"))
        #expect(!widget.contains("(No display name)"))
        #expect(widget.contains("id=\"reuse-email\">ada@example.com</span><span class=\"hides-email\">Hides email"))
        // The official widget's hooks stay.
        #expect(widget.contains("<li class=\"js-reuse-account mdc-list-item\""))
        #expect(widget.contains("id=\"add-account-button\" class=\"js-new-account mdc-list-item\""))
    }

    @Test func theRootAndTheWidgetsBareErrorNameTheConsole() throws {
        let emulator = try TestEmulator()
        let root = try emulator.send("GET", "/")
        #expect(root["authEmulator"]?["console"] == .string("http://localhost/emulator/ui"))
        #expect(root["authEmulator"]?["ready"] == true)
        let bare = try emulator.send("GET", "/emulator/auth/handler")
        #expect(bare.status == 400)
        #expect(bare["authEmulator"]?["error"] == "missing apiKey or providerId query parameters")
        #expect(bare["authEmulator"]?["console"] == .string("http://localhost/emulator/ui"))
    }
}
