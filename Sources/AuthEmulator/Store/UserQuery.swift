import JSON
import SQLiteStore

/// What `accounts:query` selects, as SQL on the users table: the expression's values (a user
/// matches when any of them does), the order, and the page. Counting and paging run in SQLite, so a
/// query holds in memory only the page it answers, whatever the scope holds.
struct UserQuery: Sendable, Equatable {
    enum SortKey: Sendable, Equatable {
        case userId, name, email, createdAt, lastLoginAt

        /// The key as SQL, absent values ordered as the empty string or 0. `local_id` comes after
        /// it in the ORDER BY, so pages never overlap.
        var sql: String? {
            switch self {
            case .userId: nil
            case .name: "IFNULL(display_name, '')"
            case .email: "IFNULL(email, '')"
            case .createdAt: "created_at"
            case .lastLoginAt: "IFNULL(last_login_at, 0)"
            }
        }
    }

    var userIds: [String] = []
    /// Lower-cased, as stored.
    var emails: [String] = []
    var phoneNumbers: [String] = []
    var sortKey = SortKey.userId
    var descending = false
    var offset = 0
    var limit = UserQuery.maximumLimit
    /// Production's most users a page.
    static let maximumLimit = 500

    /// With no expression every user of the scope matches.
    var hasExpression: Bool { !(userIds.isEmpty && emails.isEmpty && phoneNumbers.isEmpty) }

    /// The rows the query reads, for `SELECT … FROM <source>` (it ends in a WHERE clause, so more
    /// terms follow with AND), and its arguments after `?1` (project) and `?2` (tenant). An
    /// expression is a UNION of index searches (primary key, email and phone indexes) by the values
    /// of a JSON array each, so any number of values binds as three arguments; its users are joined
    /// by rowid with the union as the outer loop (CROSS JOIN): with the expression as an OR in the
    /// WHERE clause, SQLite walked a whole index in ORDER BY order and tested every row.
    var source: (sql: String, arguments: [SQLiteValue]) {
        let scope = "users.project_id = ?1 AND users.tenant_id = ?2"
        guard hasExpression else { return ("users WHERE \(scope)", []) }
        func search(_ column: String, _ parameter: Int) -> String {
            "SELECT rowid AS id FROM users WHERE \(scope) AND \(column) IN (SELECT value FROM json_each(?\(parameter)))"
        }
        let sql = "(\(search("local_id", 3)) UNION \(search("email", 4)) UNION \(search("phone_number", 5))) matched"
            + " CROSS JOIN users ON users.rowid = matched.id WHERE \(scope)"
        return (sql, [Self.jsonArray(userIds), Self.jsonArray(emails), Self.jsonArray(phoneNumbers)])
    }

    /// `ORDER BY`'s terms: the key, then the user id, both in the query's direction. USER_ID and
    /// CREATED_AT walk an index (the primary key, `users_by_creation`); the other keys have none, so
    /// SQLite reads the scope once and keeps only the best `offset + limit` keys in its sorter.
    var orderBy: String {
        let direction = descending ? " DESC" : ""
        return (sortKey.sql.map { "\($0)\(direction), " } ?? "") + "local_id\(direction)"
    }

    private static func jsonArray(_ values: [String]) -> SQLiteValue {
        .text(JSONValue.array(values.map(JSONValue.string)).compactString)
    }
}
