/// Every operation's declared fields, by operation id (`OperationFields`).
enum FieldCatalogue {
    static func fields(of operationId: String) -> OperationFields {
        byOperation[operationId] ?? OperationFields()
    }

    static let byOperation: [String: OperationFields] = {
        var all = EmulatorFields.byOperation
        for (id, fields) in FirebaseFields.byOperation.merging(PageFields.byOperation, uniquingKeysWith: { first, _ in first }) {
            all[id] = fields
        }
        // The config documents' fields join the query parameters their handlers read.
        for (id, document) in ConfigFields.byOperation {
            var fields = all[id] ?? OperationFields()
            fields.body += document.body.filter { field in !fields.body.contains { $0.name == field.name } }
            all[id] = fields
        }
        return all
    }()
}
