@testable import AuthEmulator
import Foundation
import HTTPTestSupport
import JSON
import SQLiteStore
import Testing

/// Bulk reads and deletes bounded by their answer (issue 28.4): `accounts:query` counts, filters,
/// sorts and pages in SQL; the console's list walks an index in its own order and finds an exact
/// uid or email by index; deleting every user goes in bounded transactions; imports take at most
/// production's 1000 users a request.
@Suite struct BulkReadTests {
    /// Users whose sort keys tie and go missing in every way the old in-memory sort handled: no
    /// name, an empty name, names differing only in case, no email, shared creation times, no
    /// last sign-in.
    static func seed(_ emulator: TestEmulator, count: Int = 40) throws -> Int {
        let names: [String?] = ["b", "a", "B", nil, "", "a", "ç", "Zed"]
        let users: [JSONValue] = (0..<count).map { index in
            var user: JSONObject = [
                "localId": .string("u\(String(format: "%02d", (index * 7) % count))"),
                "createdAt": .string(String(1_700_000_000_000 + Int64(index % 4) * 1000)),
            ]
            if let name = names[index % names.count] { user["displayName"] = .string(name) }
            if index % 3 != 0 { user["email"] = .string("user\(index % 11)-\(index)@example.com") }
            if index % 5 == 1 { user["phoneNumber"] = .string("+1555000\(String(format: "%04d", index))") }
            if index % 4 != 2 { user["lastLoginAt"] = .string(String(1_700_000_500_000 + Int64(index % 3) * 1000)) }
            return .object(user)
        }
        let reply = try emulator.admin("accounts:batchCreate", ["users": .array(users)])
        #expect(reply.status == 200)
        #expect(reply["error"]?.arrayValue?.isEmpty == true)
        return count
    }

    /// The order the query answered before it moved into SQL: every user read, filtered, then
    /// sorted in Swift by the key (absent values as "" or 0), ties by user id, both in the order asked.
    static func expected(
        _ all: [JSONValue], sortBy: String?, descending: Bool, offset: Int, limit: Int,
        userIds: Set<String> = [], emails: Set<String> = [], phones: Set<String> = []
    ) -> [String] {
        let filtered = all.filter { user in
            userIds.isEmpty && emails.isEmpty && phones.isEmpty
                || userIds.contains(user["localId"]?.stringValue ?? "")
                || user["email"]?.stringValue.map(emails.contains) == true
                || user["phoneNumber"]?.stringValue.map(phones.contains) == true
        }
        func key(_ user: JSONValue) -> String {
            func padded(_ field: String) -> String {
                let text = user[field]?.stringValue ?? "0"
                return String(repeating: " ", count: max(0, 20 - text.count)) + text
            }
            return switch sortBy {
            case "NAME": user["displayName"]?.stringValue ?? ""
            case "USER_EMAIL": user["email"]?.stringValue ?? ""
            case "CREATED_AT": padded("createdAt")
            case "LAST_LOGIN_AT": padded("lastLoginAt")
            default: user["localId"]?.stringValue ?? ""
            }
        }
        let sorted = filtered.sorted { first, second in
            let (a, b) = (key(first), key(second))
            let (idA, idB) = (first["localId"]?.stringValue ?? "", second["localId"]?.stringValue ?? "")
            if a != b { return descending ? a > b : a < b }
            return descending ? idA > idB : idA < idB
        }
        return sorted.dropFirst(offset).prefix(limit).compactMap { $0["localId"]?.stringValue }
    }

    @Test func queryAnswersWhatTheInMemorySortAnswered() throws {
        let emulator = try TestEmulator()
        let count = try Self.seed(emulator)
        let all = try emulator.admin("accounts:query", [:])["userInfo"]?.arrayValue ?? []
        #expect(all.count == count)
        let expressions: [(JSONValue?, Set<String>, Set<String>, Set<String>)] = [
            (nil, [], [], []),
            ([["userId": "u05"], ["email": "USER4-4@example.com"], ["phoneNumber": "+15550000011"], ["email": "nobody@example.com"]],
             ["u05"], ["user4-4@example.com"], ["+15550000011"]),
        ]
        for sortBy in [nil, "USER_ID", "NAME", "USER_EMAIL", "CREATED_AT", "LAST_LOGIN_AT"] {
            for order in [nil, "ASC", "DESC"] {
                for (offset, limit) in [(0, 0), (3, 7), (count - 2, 10), (count + 5, 1)] {
                    for (expression, userIds, emails, phones) in expressions {
                        var body: JSONObject = ["offset": .int(Int64(offset)), "limit": .int(Int64(limit))]
                        if let sortBy { body["sortBy"] = .string(sortBy) }
                        if let order { body["order"] = .string(order) }
                        if let expression { body["expression"] = expression }
                        let reply = try emulator.admin("accounts:query", .object(body))
                        let answered = reply["userInfo"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } ?? []
                        let expected = Self.expected(
                            all, sortBy: sortBy, descending: order == "DESC", offset: offset, limit: limit == 0 ? 500 : limit,
                            userIds: userIds, emails: emails, phones: phones)
                        #expect(answered == expected, "\(body)")
                        let matches = expression == nil ? count : Self.expected(
                            all, sortBy: nil, descending: false, offset: 0, limit: 500, userIds: userIds, emails: emails, phones: phones).count
                        #expect(reply["recordsCount"]?.stringValue == String(matches), "\(body)")
                    }
                }
            }
        }
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false, "expression": [["userId": "u05"]]]).json
            == ["recordsCount": "1"])
    }

    /// What SQLite plans for the query's SQL: index searches, never a scan of the users table, and
    /// no sort for the orders an index holds.
    @Test func queryPlansSearchIndexes() throws {
        let database = try SQLiteDatabase(location: .inMemory, migrations: Schema.migrations)
        func plan(_ query: UserQuery, select: String = "users.local_id", paged: Bool = true) throws -> [String] {
            let source = query.source
            let sql = "EXPLAIN QUERY PLAN SELECT \(select) FROM \(source.sql)"
                + (paged ? " ORDER BY \(query.orderBy) LIMIT 500 OFFSET 10" : "")
            return try database.read { connection in
                try connection.query(sql, [.text("p"), .text("")] + source.arguments).compactMap { $0[3].text }
            }
        }
        func scans(_ plan: [String]) -> Bool { plan.contains { $0.hasPrefix("SCAN users") } }
        let count = try plan(UserQuery(), select: "count(*)", paged: false)
        #expect(!scans(count) && count.contains { $0.contains("COVERING INDEX") }, "\(count)")
        for (key, index) in [(UserQuery.SortKey.userId, "sqlite_autoindex_users_1"), (.createdAt, "users_by_creation")] {
            for descending in [false, true] {
                let page = try plan(UserQuery(sortKey: key, descending: descending))
                #expect(page.contains { $0.contains(index) } && !page.contains { $0.contains("TEMP B-TREE") }, "\(page)")
            }
        }
        let expression = UserQuery(userIds: ["a"], emails: ["b@example.com"], phoneNumbers: ["+15550000000"], sortKey: .name)
        for plan in [try plan(expression), try plan(expression, select: "count(*)", paged: false)] {
            #expect(!scans(plan), "\(plan)")
            for index in ["sqlite_autoindex_users_1 (project_id=? AND tenant_id=? AND local_id=?)",
                          "users_by_email (project_id=? AND tenant_id=? AND email=?)",
                          "users_by_phone (project_id=? AND tenant_id=? AND phone_number=?)"] {
                #expect(plan.contains { $0.contains(index) }, "\(plan)")
            }
        }
    }

    @Test func consoleListPagesNewestFirstThroughTiesAndFindsExactMatchesByIndex() throws {
        let emulator = try TestEmulator()
        let count = try Self.seed(emulator)
        let all = try emulator.admin("accounts:query", [:])["userInfo"]?.arrayValue ?? []
        let newestFirst = Self.expected(all, sortBy: "CREATED_AT", descending: true, offset: 0, limit: count)
        let store = emulator.emulator.environment.store
        let scope = UserScope(projectId: TestEmulator.project)
        var listed: [String] = []
        var cursor: UserRepository.NewestFirstCursor?
        while true {
            let page = try store.read { try $0.users.search("", in: scope, after: cursor, limit: 7) }
            listed += page.map(\.localId)
            guard page.count == 7, let last = page.last else { break }
            cursor = UserRepository.NewestFirstCursor(after: last)
        }
        #expect(listed == newestFirst)

        // An exact uid, email (any case) or phone number: those users only, by index.
        func search(_ text: String) throws -> [String] {
            try store.read { try $0.users.search(text, in: scope, after: nil, limit: 50) }.map(\.localId)
        }
        #expect(try search("u05") == ["u05"])
        let email = try #require(all.first { $0["localId"] == "u07" }?["email"]?.stringValue)
        #expect(try search(email.uppercased()) == ["u07"])
        #expect(try search("+15550000011").count == 1)
        // Anything else is still a substring search, newest first.
        let containing = try search("u0")
        #expect(containing == newestFirst.filter { $0.contains("u0") })
        #expect(try search("user3-").count == all.filter { $0["email"]?.stringValue?.hasPrefix("user3-") == true }.count)

        // The list's own SQL walks `users_by_creation` backwards, with no sort.
        let plan = try store.read {
            try $0.connection.query(
                """
                EXPLAIN QUERY PLAN SELECT local_id FROM users WHERE users.project_id = ?1 AND users.tenant_id = ?2
                AND (created_at, local_id) < (?3, ?4) ORDER BY created_at DESC, local_id DESC LIMIT 51
                """, [.text(scope.projectId), .text(""), .integer(.max), .text("")]
            ).compactMap { $0[3].text }
        }
        #expect(plan.contains { $0.contains("users_by_creation") } && !plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    /// A `--data` file of schema 26 gains the index and lists the same.
    @Test func aFileOfSchema26MigratesToTheCreationIndex() throws {
        let file = RefreshTokenStorageTests.temporaryFile()
        defer { RefreshTokenStorageTests.remove(file) }
        do {
            let old = try SQLiteDatabase(location: .file(file), migrations: Schema.migrations.filter { $0.version <= 26 })
            try old.write { connection in
                for (index, localId) in ["b", "a", "c"].enumerated() {
                    try connection.execute(
                        "INSERT INTO users (project_id, tenant_id, local_id, created_at) VALUES (?, '', ?, ?)",
                        [.text(TestEmulator.project), .text(localId), .integer(1_700_000_000_000 + Int64(index / 2))])
                }
            }
            #expect(old.schemaVersion == 26)
        }
        let emulator = try TestEmulator(dataFile: file)
        let ids = try emulator.admin("accounts:query", ["sortBy": "CREATED_AT", "order": "DESC"])["userInfo"]?.arrayValue?
            .compactMap { $0["localId"]?.stringValue }
        #expect(ids == ["c", "b", "a"])
        let indexes = try emulator.emulator.environment.store.read {
            try $0.connection.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'users'").compactMap { $0[0].text }
        }
        #expect(indexes.contains("users_by_creation"))
    }

    @Test func deletingEveryUserGoesInBoundedSteps() throws {
        let emulator = try TestEmulator()
        let step = AuthStore.deletionStep
        let total = step * 2 + step / 2
        for batch in stride(from: 0, to: total, by: BatchCreate.maximumUsers) {
            let users: [JSONValue] = (batch..<min(batch + BatchCreate.maximumUsers, total)).map { ["localId": .string("bulk\($0)")] }
            #expect(try emulator.admin("accounts:batchCreate", ["users": .array(users)]).status == 200)
        }
        #expect(try emulator.signUp("token@example.com")["refreshToken"] != nil)
        let other = try emulator.admin("accounts", ["localId": "elsewhere"], tenant: "tenant-a")
        #expect(other.status == 200)
        let store = emulator.emulator.environment.store
        let scope = UserScope(projectId: TestEmulator.project)

        // One step deletes one step's worth and says more is left.
        #expect(try store.write { try $0.users.deleteSome(in: scope, limit: step) })
        #expect(try store.read { try $0.users.count(in: scope) } == total + 1 - step)

        #expect(try emulator.send("DELETE", "/emulator/v1/projects/\(TestEmulator.project)/accounts").status == 200)
        #expect(try store.read { try $0.users.count(in: scope) } == 0)
        let tokens = try store.read {
            try $0.connection.queryFirst("SELECT count(*) FROM refresh_tokens WHERE project_id = ? AND tenant_id = ''", [.text(scope.projectId)])
        }
        #expect(tokens?[0].integer == 0)
        // Another tenant's users stay.
        #expect(try store.read { try $0.users.count(in: UserScope(projectId: TestEmulator.project, tenantId: "tenant-a")) } == 1)
    }

    /// `batchGet` with a negative `maxResults` (every user) reads and writes a page at a time; the
    /// answer is the same text as the tree's encoding, in user id order, for more users than a page.
    @Test func batchGetOfEveryUserIsWrittenPageByPage() throws {
        let emulator = try TestEmulator()
        let total = BatchOperations.maximumPageSize * 2 + 7
        for batch in stride(from: 0, to: total, by: BatchCreate.maximumUsers) {
            let users: [JSONValue] = (batch..<min(batch + BatchCreate.maximumUsers, total)).map {
                ["localId": .string(String(format: "all%05d", $0)), "email": .string("all\($0)@example.com")]
            }
            #expect(try emulator.admin("accounts:batchCreate", ["users": .array(users)]).status == 200)
        }
        let path = "/identitytoolkit.googleapis.com/v1/projects/\(TestEmulator.project)/accounts:batchGet"
        for (query, count, token) in [("maxResults=-1", total, nil), ("maxResults=1000", 1000, "all00999"), ("maxResults=5&nextPageToken=all02005", 1, nil)] {
            let response = try RawHTTPConnection(port: emulator.emulator.port).exchange(
                "GET", "\(path)?\(query)", headers: [("Authorization", "Bearer owner")])
            #expect(response.status == 200)
            let answer = try JSONValue(parsing: response.body)
            #expect(answer.prettyEncoded() == response.body, "\(query)")
            let ids = answer["users"]?.arrayValue?.compactMap { $0["localId"]?.stringValue } ?? []
            #expect(ids.count == count && ids == ids.sorted(), "\(query)")
            #expect(answer["nextPageToken"]?.stringValue == token, "\(query)")
        }
        let empty = try RawHTTPConnection(port: emulator.emulator.port).exchange(
            "GET", "\(path)?nextPageToken=zzz", headers: [("Authorization", "Bearer owner")])
        #expect(try JSONValue(parsing: empty.body).prettyEncoded() == empty.body)
    }

    @Test func batchCreateTakesAtMostProductionsThousandUsers() throws {
        let emulator = try TestEmulator()
        func users(_ count: Int, _ prefix: String) -> JSONValue {
            .array((0..<count).map { ["localId": .string("\(prefix)\($0)")] })
        }
        let over = try emulator.admin("accounts:batchCreate", ["users": users(1001, "over")])
        #expect(over.status == 400)
        #expect(over.errorMessage == "MAXIMUM_USER_COUNT_EXCEEDED : A maximum of 1000 users can be imported at once.")
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "0")
        let most = try emulator.admin("accounts:batchCreate", ["users": users(1000, "most")])
        #expect(most.status == 200)
        #expect(most["error"]?.arrayValue?.isEmpty == true)
        #expect(try emulator.admin("accounts:query", ["returnUserInfo": false])["recordsCount"] == "1000")
    }
}

/// `accounts:query` runs on `LongReads`, off the server's two threads: queries waiting for their
/// turn hold no thread, so a lookup is answered meanwhile.
@Suite struct LongReadTests {
    @Test func queriesWaitingForTheirTurnHoldNoServerThread() throws {
        let emulator = try TestEmulator()
        let signedUp = try emulator.signUp("short@example.com")
        let idToken = try #require(signedUp["idToken"]?.stringValue)
        let longReads = emulator.emulator.environment.longReads
        // A read that holds the queue until the test lets it go.
        let release = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        longReads.run {
            holding.signal()
            release.wait()
        }
        holding.wait()
        let answers = Locked<[TestEmulator.Reply]>([])
        let done = DispatchGroup()
        for _ in 0..<3 {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                if let reply = try? emulator.admin("accounts:query", ["returnUserInfo": false]) {
                    answers.withLock { $0.append(reply) }
                }
            }
        }
        // Three queries, more than the server has threads, are all in the queue...
        let deadline = Date().addingTimeInterval(30)
        while longReads.waitingCount < 3 && Date() < deadline { usleep(1000) }
        #expect(longReads.waitingCount == 3)
        // ...and a short request is answered while they wait.
        let lookup = try emulator.client("lookup", ["idToken": .string(idToken)])
        #expect(lookup.status == 200)
        #expect(answers.withLock { $0.isEmpty })
        release.signal()
        done.wait()
        #expect(answers.withLock { $0.map(\.json) } == Array(repeating: ["recordsCount": "1"], count: 3))
    }
}
