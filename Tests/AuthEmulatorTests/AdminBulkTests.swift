import JSON
import Testing

@Suite struct AdminBulkTests {
    static func seed(_ emulator: TestEmulator, _ localIds: [String]) throws {
        for localId in localIds { _ = try emulator.admin("accounts", ["localId": .string(localId)]) }
    }

    func batchGet(_ emulator: TestEmulator, _ query: String) throws -> TestEmulator.Reply {
        try emulator.send(
            "GET", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project)/accounts:batchGet?\(query)",
            headers: [("Authorization", "Bearer owner")])
    }

    @Test func batchGetPagesInLocalIdOrder() throws {
        let emulator = try TestEmulator()
        try Self.seed(emulator, ["c", "a", "e", "b", "d"])
        let first = try batchGet(emulator, "maxResults=2")
        #expect(first["kind"] == "identitytoolkit#DownloadAccountResponse")
        #expect(first["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["a", "b"])
        #expect(first["nextPageToken"] == "b")
        let last = try batchGet(emulator, "maxResults=2&nextPageToken=d")
        #expect(last["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["e"])
        #expect(last["nextPageToken"] == nil)
        #expect(try batchGet(emulator, "maxResults=-1")["users"]?.arrayValue?.count == 5)
        #expect(try batchGet(emulator, "")["users"]?.arrayValue?.count == 5)
        // The project path needs the owner.
        let withKey = try emulator.send(
            "GET", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project)/accounts:batchGet?key=k")
        #expect(withKey.errorMessage == "INSUFFICIENT_PERMISSION : Only authenticated requests can specify target_project_id.")
    }

    @Test func batchGetReadsATenantFromTheQuery() throws {
        let emulator = try TestEmulator()
        _ = try emulator.admin("accounts", ["localId": "tenant-user"], tenant: "t1")
        #expect(try batchGet(emulator, "tenantId=t1")["users"]?.arrayValue?.first?["tenantId"] == "t1")
        #expect(try batchGet(emulator, "")["users"] == [])
    }

    @Test func legacyDownloadAccountMapsToBatchGet() throws {
        let emulator = try TestEmulator()
        try Self.seed(emulator, ["x", "y"])
        let reply = try emulator.send(
            "POST", "/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount",
            json: ["targetProjectId": .string(TestEmulator.project), "maxResults": 1], headers: [("Authorization", "Bearer owner")])
        #expect(reply["users"]?.arrayValue?.count == 1)
        let missing = try emulator.send(
            "POST", "/www.googleapis.com/identitytoolkit/v3/relyingparty/downloadAccount", json: [:],
            headers: [("Authorization", "Bearer owner")])
        #expect(missing.errorMessage == "INSUFFICIENT_PERMISSION")
    }

    @Test func batchDeleteNeedsDisabledUsersOrForce() throws {
        let emulator = try TestEmulator()
        try Self.seed(emulator, ["on", "off"])
        _ = try emulator.admin("accounts:update", ["localId": "off", "disableUser": true])
        let reply = try emulator.admin("accounts:batchDelete", ["localIds": ["on", "off", "never"]])
        #expect(reply.json == ["errors": [["index": 0, "localId": "on", "message": "NOT_DISABLED : Disable the account before batch deletion."]]])
        #expect(try emulator.admin("accounts:lookup", ["localId": ["on", "off"]])["users"]?.arrayValue?.count == 1)
        #expect(try emulator.admin("accounts:batchDelete", ["localIds": ["on"], "force": true]).json == [:])
        #expect(try emulator.admin("accounts:lookup", ["localId": ["on"]])["users"] == nil)
        #expect(try emulator.admin("accounts:batchDelete", ["localIds": []]).errorMessage == "LOCAL_ID_LIST_EXCEEDS_LIMIT")
    }

    @Test func queryListsAndCounts() throws {
        let emulator = try TestEmulator()
        for localId in ["m", "k", "z"] {
            _ = try emulator.admin("accounts", ["localId": .string(localId), "email": .string("\(localId)@example.com")])
            emulator.clock.advance(seconds: 1)
        }
        let all = try emulator.admin("accounts:query", ["order": "DESC"])
        #expect(all["recordsCount"] == "3")
        #expect(all["userInfo"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } == ["z", "m", "k"])
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false]).json == ["recordsCount": "3"])
        func ids(_ body: JSONValue) throws -> [String] {
            try emulator.admin("accounts:query", body)["userInfo"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } ?? []
        }
        // Pages: offset and limit over the sorted list; the count is every match.
        #expect(try ids(["limit": "2"]) == ["k", "m"])
        #expect(try ids(["limit": 2, "offset": "2"]) == ["z"])
        #expect(try emulator.admin("accounts:query", ["limit": 1])["recordsCount"] == "3")
        #expect(try ids(["sortBy": "CREATED_AT", "order": "DESC"]) == ["z", "k", "m"])
        // Any expression clause matches.
        #expect(try ids(["expression": [["userId": "z"], ["email": "M@EXAMPLE.COM"]]]) == ["m", "z"])
        #expect(try emulator.admin("accounts:query", ["expression": [[:]]]).errorMessage == "INVALID_ARGUMENT : expression[0] names none of email, userId, phoneNumber.")
        #expect(try emulator.admin("accounts:query", ["limit": 501]).errorMessage == "INVALID_ARGUMENT : limit must be between 0 and 500.")
        #expect(try emulator.admin("accounts:query", ["sortBy": "COLOUR"]).status == 400)
        let projectForm = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project):queryAccounts", json: [:],
            headers: [("Authorization", "Bearer owner")])
        #expect(projectForm["recordsCount"] == "3")
    }

    @Test func sessionCookieCopiesTheIdTokenClaims() throws {
        let emulator = try TestEmulator()
        let signUp = try emulator.signUp("cookie@example.com")
        let cookieReply = try emulator.send(
            "POST", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project):createSessionCookie",
            json: ["idToken": signUp["idToken"]!, "validDuration": 600], headers: [("Authorization", "Bearer owner")])
        let cookie = try TokenInspection.decode(cookieReply["sessionCookie"]?.stringValue)
        #expect(cookie.header == ["alg": "none", "typ": "JWT"])
        #expect(cookie.payload["iss"] == .string("https://session.firebase.google.com/\(TestEmulator.project)"))
        #expect(cookie.payload["exp"] == .int(TestEmulator.start.secondsSinceEpoch + 600))
        #expect(cookie.payload["user_id"] == signUp["localId"])
        #expect(cookie.payload["firebase"]?["sign_in_provider"] == "password")

        func error(_ body: JSONValue) throws -> String? {
            try emulator.send(
                "POST", "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project):createSessionCookie",
                json: body, headers: [("Authorization", "Bearer owner")]
            ).errorMessage
        }
        #expect(try error(["idToken": signUp["idToken"]!, "validDuration": "299"]) == "INVALID_DURATION")
        #expect(try error(["idToken": signUp["idToken"]!, "validDuration": 1_209_601]) == "INVALID_DURATION")
        #expect(try error(["validDuration": 600]) == "MISSING_ID_TOKEN")
    }
}
