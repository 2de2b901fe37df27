import BuildInfo
import JSON

/// `GET /emulator/openapi.json`, which `GET /` names: every route the emulator serves, with its
/// path and query parameters, its request body's fields and types, and its error responses. It is
/// made from the route table and each operation's declared fields (`OperationFields`), which the
/// router enforces, so the document cannot drift from what the emulator reads.
enum RouteCatalogue {
    static func document(_ request: OperationRequest) throws -> JSONObject {
        var paths = JSONObject()
        var seen = Set<String>()
        var operationIds: [String: Int] = [:]
        for route in RouteTable.routes {
            let path = "/" + route.pattern.template
            let method = route.method.lowercased()
            // The first route for a path and method is the one that answers.
            guard seen.insert("\(method) \(path)").inserted else { continue }
            // OpenAPI wants unique ids; an operation served on several paths gets `…#2`, `…#3`.
            let uses = (operationIds[route.operation.id] ?? 0) + 1
            operationIds[route.operation.id] = uses
            let operationId = uses == 1 ? route.operation.id : "\(route.operation.id)#\(uses)"
            var entry = paths[path]?.objectValue ?? JSONObject()
            entry[method] = .object(describe(route, operationId: operationId))
            paths[path] = .object(entry)
        }
        return [
            "openapi": "3.0.3",
            "info": [
                "title": "auth-emulator", "version": .string(BuildInfo.version),
                "description": "A local Firebase Authentication emulator. Google's routes accept fields they do not declare, as the official emulator does; the emulator's own routes (/emulator/v1/…) refuse them.",
            ],
            "servers": [["url": .string(request.origin)]],
            "paths": .object(paths),
            "components": ["schemas": .object(errorSchemas)],
        ]
    }

    private static func describe(_ route: Route, operationId: String) -> JSONObject {
        let operation = route.operation
        let fields = operation.fields
        var described: JSONObject = ["operationId": .string(operationId)]
        if operationId != operation.id { described["x-operation"] = .string(operation.id) }
        if operation.handler == nil { described["x-not-implemented"] = true }
        var parameters: [JSONValue] = route.pattern.parameterNames.map { name in
            ["name": .string(name), "in": "path", "required": true, "schema": ["type": "string"]]
        }
        for field in fields.query {
            parameters.append([
                "name": .string(field.name), "in": "query", "required": .bool(field.isRequired), "schema": .object(schema(field.type, strict: false)),
            ])
        }
        if operation.access != .open, !fields.query.contains(where: { $0.name == "key" }) {
            parameters.append(["name": "key", "in": "query", "required": false, "schema": ["type": "string"]])
        }
        if !parameters.isEmpty { described["parameters"] = .array(parameters) }
        if !fields.body.isEmpty, route.method != "GET", route.method != "DELETE" {
            let body = JSONValue.object(schema(.object(fields.body), strict: fields.refusesUnknown))
            var content = JSONObject()
            if fields.isForm || operation.id == "securetoken.token" { content["application/x-www-form-urlencoded"] = ["schema": body] }
            if !fields.isForm { content["application/json"] = ["schema": body] }
            described["requestBody"] = ["required": false, "content": .object(content)]
        }
        described["responses"] = .object(responses(operation))
        return described
    }

    /// A declared type as a JSON schema; `strict` objects (our own routes) refuse other members.
    static func schema(_ type: FieldType, strict: Bool) -> JSONObject {
        switch type {
        case .string: return ["type": "string"]
        case .integer: return ["type": "integer", "format": "int64"]
        case .number: return ["type": "number"]
        case .boolean: return ["type": "boolean"]
        case .any: return [:]
        case .array(let element): return ["type": "array", "items": .object(schema(element, strict: strict))]
        case .map(let values):
            if case .any = values { return ["type": "object", "additionalProperties": true] }
            return ["type": "object", "additionalProperties": .object(schema(values, strict: strict))]
        case .object(let fields):
            var properties = JSONObject()
            for field in fields { properties[field.name] = .object(schema(field.type, strict: strict)) }
            var object: JSONObject = ["type": "object", "properties": .object(properties)]
            let required = fields.filter(\.isRequired).map { JSONValue.string($0.name) }
            if !required.isEmpty { object["required"] = .array(required) }
            if strict { object["additionalProperties"] = false }
            return object
        }
    }

    private static func responses(_ operation: Operation) -> JSONObject {
        let page = operation.errorStyle == .html || operation.id.hasPrefix("emulator.ui.")
            || ["emulator.auth.handler", "emulator.action", "emulator.auth.iframe"].contains(operation.id)
        let success: JSONObject = page
            ? ["description": "An HTML page, or a 303 redirect after a form post.", "content": ["text/html": ["schema": ["type": "string"]]]]
            : ["description": "The operation's answer.", "content": ["application/json": ["schema": ["type": "object"]]]]
        let error = errorResponse(operation.errorStyle)
        var responses: JSONObject = ["200": .object(success)]
        if page { responses["303"] = ["description": "A form post answered by a redirect."] }
        if operation.handler == nil {
            responses["501"] = .object(error("`\(operation.id) is not implemented in the Auth Emulator.`"))
            return responses
        }
        responses["400"] = .object(error("The request is invalid: `CODE : detail`, such as `INVALID_ARGUMENT : unknown field \"x\"` on the emulator's own routes."))
        if operation.access != .open { responses["401"] = .object(error("No API key, or credentials that are not `Bearer owner`.")) }
        responses["404"] = .object(error("Nothing matches the path (or the message, tenant or config it names)."))
        if ["emulator.idp.jwks", "emulator.idp.tokens", "emulator.idp.keys.rotate"].contains(operation.id) {
            responses["429"] = .object(error("`RESOURCE_EXHAUSTED`: the fake providers already hold keys for the cap of provider ids."))
        }
        responses["413"] = .object(error("The body is larger than the server accepts."))
        responses["500"] = .object(error("`INTERNAL_ERROR` (the detail is logged, never sent)."))
        responses["503"] = .object(error("`UNAVAILABLE`: the emulator is shutting down."))
        return responses
    }

    private static func errorResponse(_ style: ErrorStyle) -> (String) -> JSONObject {
        let (type, name): (String, String) = switch style {
        case .google: ("application/json", "GoogleError")
        case .emulator: ("application/json", "EmulatorError")
        case .graph: ("application/json", "GraphError")
        case .html: ("text/html", "")
        }
        return { description in
            let schema: JSONValue = name.isEmpty ? ["type": "string"] : ["$ref": .string("#/components/schemas/\(name)")]
            return ["description": .string(description), "content": .object([type: ["schema": schema]])]
        }
    }

    private static let errorSchemas: JSONObject = [
        "GoogleError": [
            "type": "object", "required": ["error"],
            "properties": [
                "error": [
                    "type": "object",
                    "properties": [
                        "code": ["type": "integer"], "message": ["type": "string"], "status": ["type": "string"],
                        "errors": ["type": "array", "items": ["type": "object"]],
                    ],
                ],
            ],
        ],
        "EmulatorError": [
            "type": "object", "properties": ["authEmulator": ["type": "object", "properties": ["error": ["type": "string"]]]],
        ],
        "GraphError": [
            "type": "object",
            "properties": [
                "error": [
                    "type": "object",
                    "properties": ["message": ["type": "string"], "type": ["type": "string"], "code": ["type": "integer"]],
                ]
            ],
        ],
    ]
}
