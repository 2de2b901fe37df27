import FuzzSupport
import JSON

// The JSON parser on arbitrary bytes; what it accepts must survive a write and a second parse
// unchanged (the writer and the parser agree).
FuzzDriver.run { bytes in
    guard let value = try? JSONValue(parsing: bytes) else { return }
    let written = value.encoded()
    let reparsed = try? JSONValue(parsing: written)
    FuzzDriver.require(reparsed != nil, "the writer's output does not parse: \(String(decoding: written, as: UTF8.self))")
    FuzzDriver.require(reparsed?.encoded() == written, "a second write differs")
    _ = value.prettyEncoded()
}
