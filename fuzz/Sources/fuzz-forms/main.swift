@testable import AuthEmulator
import FuzzSupport

// The form, postBody, query and URI parsers a signInWithIdp request and a form body go through.
FuzzDriver.run { bytes in
    let input = FuzzInput(bytes)
    let text = input.text
    switch input.selector % 4 {
    case 0:
        let pairs = FormURLEncoding.decode(text)
        _ = RequestBody(formFields: pairs)
        _ = FormURLEncoding.encode(pairs)
    case 1:
        _ = IdPCredentialParameters.lenientPairs(text)
    case 2:
        // requestUri and postBody, split at the first newline.
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        if let parameters = try? IdPCredentialParameters(
            requestUri: String(parts[0]), postBody: parts.count > 1 ? String(parts[1]) : nil)
        {
            _ = parameters.normalizedRequestUri
            _ = parameters["id_token"]
        }
    default:
        _ = URIComponent.encode(text)
        _ = try? RequestBody(parsing: input.rest)
    }
}
