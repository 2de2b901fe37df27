@testable import AuthEmulator
import FuzzSupport

// A blocking function's answer body for each trigger: an update or an AuthError, never a trap.
FuzzDriver.run { bytes in
    let input = FuzzInput(bytes)
    let triggers = BlockingTrigger.allCases
    _ = try? BlockingUpdate.parse(input.rest, trigger: triggers[Int(input.selector) % triggers.count])
}
