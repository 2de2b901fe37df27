// @auth-emulator/testing: the browser-safe part (fetch only). Starting and stopping the binary
// is in "@auth-emulator/testing/node".
export { VERSION, DEFAULT_API_KEY, DEFAULT_HOST, DEFAULT_PROJECT, AuthEmulator, AuthScope, compareVersions, connect } from "./emulator.js";
export { AuthEmulatorError, EmulatorVersionError, SeedError, WaitTimeoutError } from "./errors.js";
export { randomNonce, sha256Hex, totpCode } from "./crypto.js";
