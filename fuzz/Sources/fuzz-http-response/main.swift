@testable import HTTPClient
import FuzzSupport

// What a blocking function or `mint --server` peer answers, byte for byte: any framing must end
// in a response or a `Failure`, never a trap.
FuzzDriver.run { bytes in
    if let response = try? ResponseParser.parse(bytes) {
        FuzzDriver.require(response.body.count <= bytes.count, "a body longer than the answer")
        FuzzDriver.require((100...999).contains(response.status), "status \(response.status)")
    }
}
