// Nonces, their SHA-256, and TOTP codes, with Web Crypto: global in browsers and Node 19+;
// Node 18 has it only as node:crypto's `webcrypto`, loaded when the global is missing.

async function webCrypto() {
  if (globalThis.crypto?.subtle) return globalThis.crypto;
  const nodeCrypto = await import("node:crypto");
  return nodeCrypto.webcrypto;
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The lowercase hex SHA-256 of `text`: what Apple and Facebook tokens carry as `nonce`. */
export async function sha256Hex(text) {
  const crypto = await webCrypto();
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** A fresh raw nonce: 32 random bytes as 64 hex digits. */
export async function randomNonce() {
  const crypto = await webCrypto();
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random id of letters and digits, as Firebase's uids are (28 by default). */
export async function randomId(length = 28) {
  const crypto = await webCrypto();
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(secret) {
  const clean = secret.toUpperCase().replace(/=+$/, "").replace(/\s+/g, "");
  const bytes = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new TypeError(`not a base32 TOTP secret: ${JSON.stringify(secret)}`);
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return new Uint8Array(bytes);
}

/**
 * The RFC 6238 code (SHA-1, 30 s steps, 6 digits) of a base32 `secret` at `time`. Pass the
 * emulator's time (`clock.now()`), not this machine's: the emulator checks codes by its clock.
 * @param {string} secret
 * @param {Date | number} time a Date or milliseconds since the epoch
 */
export async function totpCode(secret, time) {
  const milliseconds = time instanceof Date ? time.getTime() : time;
  if (!Number.isFinite(milliseconds)) throw new TypeError(`totpCode needs a Date or milliseconds, got ${time}`);
  const counter = new DataView(new ArrayBuffer(8));
  counter.setBigUint64(0, BigInt(Math.floor(milliseconds / 1000 / 30)));
  const crypto = await webCrypto();
  const key = await crypto.subtle.importKey("raw", base32Decode(secret), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, counter.buffer));
  const offset = digest[digest.length - 1] & 0x0f;
  const number = new DataView(digest.buffer).getUint32(offset) & 0x7fffffff;
  return String(number % 1_000_000).padStart(6, "0");
}
