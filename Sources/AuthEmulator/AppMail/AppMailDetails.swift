import JSON
import MailMessage

/// What an outbox message of the app's own mail carries beyond Firebase's (DESIGN §3, SMTP): the
/// envelope, the header addresses, the Message-ID and the attachments, as received.
struct AppMailDetails: Sendable, Equatable {
    var envelopeFrom: String
    var envelopeTo: [String]
    /// The From header as written (display name included).
    var headerFrom: String?
    var headerTo: [String]
    var cc: [String]
    var messageId: String?
    var attachments: [MailMessage.Attachment]
    var rawSize: Int

    init(envelope: (from: String, to: [String]), message: MailMessage, rawSize: Int) {
        envelopeFrom = envelope.from
        envelopeTo = envelope.to
        headerFrom = message.headers["From"]
        headerTo = message.addresses("To")
        cc = message.addresses("Cc")
        messageId = message.messageId
        attachments = message.attachments
        self.rawSize = rawSize
    }

    var json: JSONObject {
        func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
        return [
            "envelope": ["from": .string(envelopeFrom), "to": strings(envelopeTo)],
            "headers": [
                "from": headerFrom.map { .string($0) } ?? .null, "to": strings(headerTo), "cc": strings(cc),
                "messageId": messageId.map { .string($0) } ?? .null,
            ],
            "attachments": .array(attachments.map { attachment in
                [
                    "filename": attachment.filename.map { .string($0) } ?? .null,
                    "contentType": .string(attachment.contentType), "size": .int(Int64(attachment.size)),
                    "disposition": .string(attachment.disposition),
                    "contentId": attachment.contentId.map { .string($0) } ?? .null,
                ]
            }),
            "rawSize": .int(Int64(rawSize)),
        ]
    }

    /// Read back from the stored JSON (`json`'s shape).
    init(json: JSONObject) {
        func strings(_ value: JSONValue?) -> [String] { value?.arrayValue?.compactMap(\.stringValue) ?? [] }
        let envelope = json["envelope"]?.objectValue ?? [:]
        let headers = json["headers"]?.objectValue ?? [:]
        envelopeFrom = envelope["from"]?.stringValue ?? ""
        envelopeTo = strings(envelope["to"])
        headerFrom = headers["from"]?.stringValue
        headerTo = strings(headers["to"])
        cc = strings(headers["cc"])
        messageId = headers["messageId"]?.stringValue
        attachments = (json["attachments"]?.arrayValue ?? []).compactMap { value in
            guard let object = value.objectValue else { return nil }
            return MailMessage.Attachment(
                filename: object["filename"]?.stringValue, contentType: object["contentType"]?.stringValue ?? "",
                size: Int(object["size"]?.int64Value ?? 0), disposition: object["disposition"]?.stringValue ?? "attachment",
                contentId: object["contentId"]?.stringValue)
        }
        rawSize = Int(json["rawSize"]?.int64Value ?? 0)
    }
}
