/// The bounds one SMTP listener keeps, each answered with the reply RFC 5321 gives for it.
public struct SMTPLimits: Sendable, Equatable {
    /// Advertised as `SIZE`; a larger message is refused with `552 5.3.4`, before DATA when the
    /// client declares its size, after it otherwise (and then nothing is stored).
    public var maxMessageBytes = 10 * 1024 * 1024
    /// Recipients per message; one more gets `452 4.5.3` (RFC 5321 §4.5.3.1.8 asks for at least 100).
    public var maxRecipients = 100
    /// A command line, CRLF excluded. RFC 4954 lets an AUTH line reach 12288 bytes; a longer line
    /// gets `500 5.5.6` and is dropped.
    public var maxCommandLineBytes = 12_288
    /// A line of message text. RFC 5322 says 998, but mailers do send longer lines, so the bound
    /// only keeps one line from growing without end; the message size limit still applies.
    public var maxTextLineBytes = 1024 * 1024
    /// A client silent this long gets `421 4.4.2` and is disconnected (RFC 5321 §4.5.3.2 suggests
    /// five minutes).
    public var idleTimeoutSeconds = 300
    /// Connections at once; one more gets `421 4.3.2` and is closed.
    public var maxConnections = 64

    public init() {}
}
