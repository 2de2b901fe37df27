/// An empty listing of a project the emulator has never held anything of is most often a
/// mistyped project id: the log says so at `info`, with the emulator's own project (issue 28.1).
enum UnseenProjectHint {
    static func logIfUnseen(_ request: OperationRequest, listing: String) {
        let environment = request.environment
        let projectId = request.scope.projectId
        let defaultProjectId = environment.defaultProjectId
        guard projectId != defaultProjectId, environment.logger.minimumLevel <= .info,
            let seen = try? environment.store.read({ try $0.holdsState(of: projectId) }), !seen
        else { return }
        let close = NearestName.among([defaultProjectId], to: projectId) != nil ? " (a typo?)" : ""
        environment.logger.info(
            "\(listing) of project \(projectId) is empty: nothing was ever stored for it. The emulator's project is \(defaultProjectId)\(close); API keys map to it.")
    }
}
