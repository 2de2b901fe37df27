import SQLiteStore

/// The projects a reset clears (DESIGN §3): one, or every project the store holds.
enum ResetTarget: Sendable, Equatable {
    case project(String)
    case everyProject

    func includes(_ projectId: String) -> Bool {
        switch self {
        case .project(let id): id == projectId
        case .everyProject: true
        }
    }
}

extension SQLiteConnection {
    /// Deletes the target's rows of a table keyed by `project_id`; each repository names its own tables.
    func deleteRows(from table: StaticString, of target: ResetTarget) throws {
        switch target {
        case .project(let id): try execute("DELETE FROM \(table) WHERE project_id = ?", [.text(id)])
        case .everyProject: try execute("DELETE FROM \(table)", [])
        }
    }
}
