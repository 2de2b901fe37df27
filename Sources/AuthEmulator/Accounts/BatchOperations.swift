import JSON

/// The admin's bulk reads and deletes (reference §8.8, §8.9): `accounts:batchGet` (the Admin SDKs'
/// `list_users`), `accounts:batchDelete` (`delete_users`) and `accounts:query`.
enum BatchOperations {
    static let defaultPageSize = 20
    static let maximumPageSize = 1000

    /// Users by local id, a page at a time. `maxResults` 0 or absent means 20; a negative value
    /// means all of them (a reference-emulator extension its own export uses): those are read a
    /// page of `maximumPageSize` at a time, each page its own read, and written out as they come,
    /// so only the answer's text grows with them, not records and a JSON tree of every user too.
    static func batchGet(_ request: OperationRequest) throws -> OperationResult {
        let requested = request.queryValue("maxResults").flatMap { Int($0) } ?? 0
        let pageSize: Int? = requested < 0 ? nil : min(requested == 0 ? defaultPageSize : requested, maximumPageSize)
        var after = request.queryValue("nextPageToken").flatMap { $0.isEmpty ? nil : $0 }
        // The bytes `prettyEncoded()` writes for {kind, users, nextPageToken?} (UserRecord.write).
        var json = JSONStreamWriter(indent: 2, capacity: 1024 * (pageSize ?? maximumPageSize))
        json.beginObject()
        json.key("kind")
        json.string("identitytoolkit#DownloadAccountResponse")
        json.key("users")
        json.beginArray()
        var written = 0
        while true {
            let step = min(pageSize ?? maximumPageSize, maximumPageSize)
            let users = try request.read { transaction in
                try transaction.requireEnabled()
                return try transaction.users.users(in: transaction.scope, afterLocalId: after, limit: step)
            }
            for user in users { user.write(to: &json) }
            written += users.count
            after = users.last?.localId ?? after
            guard pageSize == nil, users.count == step else { break }
        }
        json.endArray()
        // A full page always carries a token, even when nothing follows (as in the reference).
        if let pageSize, written == pageSize, let after {
            json.key("nextPageToken")
            json.string(after)
        }
        json.endObject()
        return .encodedJSON(json.bytes)
    }

    static func batchDelete(_ request: OperationRequest) throws -> JSONObject {
        let localIds = try request.body.stringArray("localIds") ?? []
        guard (1...maximumPageSize).contains(localIds.count) else {
            throw AuthError.invalid("LOCAL_ID_LIST_EXCEEDS_LIMIT")
        }
        let force = try request.body.bool("force") ?? false
        let errors: [JSONValue] = try request.write { transaction in
            var errors: [JSONValue] = []
            for (index, localId) in localIds.enumerated() {
                guard let user = try transaction.users.user(localId: localId, in: transaction.scope) else { continue }
                if !user.disabled && !force {
                    errors.append([
                        "index": .int(Int64(index)), "localId": .string(localId),
                        "message": "NOT_DISABLED : Disable the account before batch deletion.",
                    ])
                } else {
                    try transaction.users.delete(localId: localId, in: transaction.scope)
                }
            }
            return errors
        }
        return errors.isEmpty ? [:] : ["errors": .array(errors)]
    }

    /// `accounts:query` / `:queryAccounts` as production answers it: `expression` (any of its
    /// `{email | userId | phoneNumber}` entries matches), `sortBy`, `order`, `offset`, `limit`
    /// (at most 500); `recordsCount` counts every match, `userInfo` holds the page. Both are
    /// SQL (`UserQuery`): only the page is read into memory. A count or an offset walks an index
    /// of the scope's users, so it runs on `LongReads`, not on a server thread.
    static func query(_ request: OperationRequest) -> OperationResult {
        request.longRead("accounts:query", answerQuery)
    }

    private static func answerQuery(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        // `PROJECT_DISABLED` comes before any field is checked, as in the reference.
        let (count, page) = try request.read { transaction -> (Int, [UserRecord]?) in
            try transaction.requireEnabled()
            let query = try UserQuery(body)
            let count = try transaction.users.count(matching: query, in: transaction.scope)
            guard try body.bool("returnUserInfo") != false else { return (count, nil) }
            guard query.offset < count else { return (count, []) }
            return (count, try transaction.users.users(matching: query, in: transaction.scope))
        }
        var response: JSONObject = ["recordsCount": .string(String(count))]
        if let page { response["userInfo"] = .array(page.map { .object($0.json) }) }
        return response
    }
}

extension UserQuery {
    /// The request's expression, sort and page.
    fileprivate init(_ body: RequestBody) throws(AuthError) {
        for (index, entry) in (try body.objectArray("expression") ?? []).enumerated() {
            let clause = RequestBody(entry)
            let email = try clause.nonEmptyString("email").map(EmailAddress.canonical)
            let userId = try clause.nonEmptyString("userId")
            let phoneNumber = try clause.nonEmptyString("phoneNumber")
            guard email != nil || userId != nil || phoneNumber != nil else {
                throw AuthError.invalid("INVALID_ARGUMENT : expression[\(index)] names none of email, userId, phoneNumber.")
            }
            if let email { emails.append(email) }
            if let userId { userIds.append(userId) }
            if let phoneNumber { phoneNumbers.append(phoneNumber) }
        }
        switch try body.nonEmptyString("sortBy") ?? "USER_ID" {
        case "USER_ID", "SORT_BY_FIELD_UNSPECIFIED": sortKey = .userId
        case "NAME": sortKey = .name
        case "USER_EMAIL": sortKey = .email
        case "CREATED_AT": sortKey = .createdAt
        case "LAST_LOGIN_AT": sortKey = .lastLoginAt
        default: throw AuthError.invalidArgument("/sortBy must be equal to one of the allowed values")
        }
        let order = try body.nonEmptyString("order") ?? "ASC"
        guard ["ASC", "DESC", "SORT_ORDER_UNSPECIFIED"].contains(order) else {
            throw AuthError.invalidArgument("/order must be equal to one of the allowed values")
        }
        descending = order == "DESC"
        let offset = try body.int64("offset") ?? 0
        let limit = try body.int64("limit") ?? Int64(Self.maximumLimit)
        guard offset >= 0 else { throw AuthError.invalid("INVALID_ARGUMENT : offset must not be negative.") }
        guard limit >= 0, limit <= Self.maximumLimit else {
            throw AuthError.invalid("INVALID_ARGUMENT : limit must be between 0 and \(Self.maximumLimit).")
        }
        self.offset = Int(offset)
        self.limit = limit == 0 ? Self.maximumLimit : Int(limit)
    }
}
