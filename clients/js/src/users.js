// Users seeded and read through the official admin routes (`Authorization: Bearer owner`), so a
// test needs no Admin SDK to set the stage.
import { SeedError } from "./errors.js";
import { randomId } from "./crypto.js";

const OWNER = { Authorization: "Bearer owner" };

/** The kit's seed fields in the import route's words; other fields go to batchCreate as given. */
async function importRecord({ uid, password, customClaims, providers, mfa, ...rest }) {
  const record = { localId: uid ?? (await randomId()), ...rest };
  if (password !== undefined) record.rawPassword = password;
  if (customClaims !== undefined) record.customAttributes = JSON.stringify(customClaims);
  if (providers !== undefined) {
    record.providerUserInfo = providers.map(({ providerId, uid: rawId, ...profile }) => ({ providerId, rawId, ...profile }));
  }
  if (mfa !== undefined) {
    record.mfaInfo = mfa.map(({ phoneNumber, ...factor }) => ({ phoneInfo: phoneNumber, ...factor }));
  }
  return record;
}

export class Users {
  /** @param {import("./emulator.js").AuthScope} scope */
  constructor(scope) {
    this.scope = scope;
    const tenant = scope.tenantId ? `/tenants/${encodeURIComponent(scope.tenantId)}` : "";
    this.adminPath = `/identitytoolkit.googleapis.com/v1/projects/${encodeURIComponent(scope.projectId)}${tenant}/accounts`;
    this.emulatorPath = `/emulator/v1/projects/${encodeURIComponent(scope.projectId)}${tenant}/accounts`;
  }

  admin(operation, body) {
    return this.scope.connection.json("POST", `${this.adminPath}:${operation}`, { json: body, headers: OWNER });
  }

  /**
   * Creates users in one call of the official import route and answers them as stored. Each:
   * `uid` (made up when missing), `email`, `password`, `emailVerified`, `displayName`,
   * `photoUrl`, `phoneNumber`, `disabled`, `customClaims` (an object), `providers`
   * (`[{providerId, uid, email, displayName, photoUrl}]`), `mfa` (`[{phoneNumber, displayName}]`).
   * Throws SeedError naming each refused user (the others are created).
   */
  async seed(users) {
    const list = Array.isArray(users) ? users : [users];
    const records = await Promise.all(list.map(importRecord));
    const answer = await this.admin("batchCreate", { users: records });
    const refused = answer.error ?? [];
    if (refused.length > 0) {
      throw new SeedError({ failures: refused.map(({ index, message }) => ({ index, message, user: records[index] })) });
    }
    const { users: stored = [] } = await this.admin("lookup", { localId: records.map((record) => record.localId) });
    const byId = new Map(stored.map((user) => [user.localId, user]));
    const seeded = records.map((record) => byId.get(record.localId));
    return Array.isArray(users) ? seeded : seeded[0];
  }

  /** The user with this `email`, `uid` or `phoneNumber` (exactly one given), or null. */
  async lookup({ email, uid, phoneNumber } = {}) {
    const keys = [email !== undefined && { email: [email] }, uid !== undefined && { localId: [uid] },
      phoneNumber !== undefined && { phoneNumber: [phoneNumber] }].filter(Boolean);
    if (keys.length !== 1) throw new TypeError("users.lookup takes exactly one of { email }, { uid } or { phoneNumber }");
    const [key] = keys;
    const { users = [] } = await this.admin("lookup", key);
    return users[0] ?? null;
  }

  /** Every user of the project (or tenant), ordered by uid. */
  async list() {
    const { users = [] } = await this.scope.connection.json("GET", `${this.adminPath}:batchGet`, { query: { maxResults: -1 }, headers: OWNER });
    return users;
  }

  /** Deletes one user. */
  async delete(uid) {
    await this.admin("delete", { localId: uid });
  }

  /** Deletes every user of the project (or tenant), as the official emulator's reset does; nothing else. */
  async clear() {
    await this.scope.connection.json("DELETE", this.emulatorPath);
  }
}
