import JSON

/// The admin's bulk reads and deletes (reference §8.8, §8.9): `accounts:batchGet` (the Admin SDKs'
/// `list_users`), `accounts:batchDelete` (`delete_users`) and `accounts:query`.
enum BatchOperations {
    static let defaultPageSize = 20
    static let maximumPageSize = 1000

    /// Users by local id, a page at a time. `maxResults` 0 or absent means 20; a negative value
    /// means all of them (a reference-emulator extension its own export uses).
    static func batchGet(_ request: OperationRequest) throws -> JSONObject {
        let requested = request.queryValue("maxResults").flatMap { Int($0) } ?? 0
        let pageSize: Int? = requested < 0 ? nil : min(requested == 0 ? defaultPageSize : requested, maximumPageSize)
        let after = request.queryValue("nextPageToken").flatMap { $0.isEmpty ? nil : $0 }
        let users = try request.read { try $0.users.users(in: $0.scope, afterLocalId: after, limit: pageSize) }
        var response: JSONObject = [
            "kind": "identitytoolkit#DownloadAccountResponse", "users": .array(users.map { .object($0.json) }),
        ]
        // A full page always carries a token, even when nothing follows (as in the reference).
        if let pageSize, users.count == pageSize, let last = users.last {
            response["nextPageToken"] = .string(last.localId)
        }
        return response
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

    /// Every user, sorted by local id; the filters production offers are not built (as in the reference).
    static func query(_ request: OperationRequest) throws -> JSONObject {
        let body = request.body
        if let expression = body.object["expression"]?.arrayValue, !expression.isEmpty {
            throw AuthError.notImplemented("expression is not implemented.")
        }
        if try body.int64("limit").map({ $0 != 0 }) ?? false { throw AuthError.notImplemented("limit is not implemented.") }
        if try (body.string("offset") ?? "0") != "0" { throw AuthError.notImplemented("offset is not implemented.") }
        let sortBy = try body.string("sortBy") ?? "USER_ID"
        guard sortBy == "USER_ID" || sortBy == "SORT_BY_FIELD_UNSPECIFIED" else {
            throw AuthError.notImplemented("Only sorting by USER_ID is implemented.")
        }
        let descending = try body.string("order") == "DESC"
        var users = try request.read { try $0.users.users(in: $0.scope, afterLocalId: nil, limit: nil) }
        if descending { users.reverse() }
        var response: JSONObject = ["recordsCount": .string(String(users.count))]
        if try body.bool("returnUserInfo") != false {
            response["userInfo"] = .array(users.map { .object($0.json) })
        }
        return response
    }
}
