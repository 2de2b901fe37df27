// Written against the .d.ts files only: tests/types.test.js compiles it with Debian's tsc
// (strict) and runs the output against a real emulator, so the declarations and the modules
// have to agree in both directions. No Node types are installed: it uses none.
import { AuthEmulatorError, WaitTimeoutError, connect, sha256Hex, type Message, type RunningEmulator, startEmulator } from "@auth-emulator/testing/node";
import { AuthScope, totpCode } from "@auth-emulator/testing";

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`types usage: ${what}`);
}

export async function main(binary: string): Promise<string[]> {
  const done: string[] = [];
  const emulator: RunningEmulator = await startEmulator({ binary, projectId: "demo-types", setEnv: false, logLevel: "error" });
  try {
    await emulator.reset();
    const { user, token } = await emulator.apple.signIn({ email: "ada@example.com", hideEmail: true, nonce: true, name: { firstName: "Ada" } });
    check(token.rawNonce !== undefined && token.realEmail === "ada@example.com", "apple mint");
    check((await sha256Hex(token.rawNonce ?? "")).length === 64, "sha256Hex");
    check(user.displayName === "Ada", "apple name");
    done.push("apple");

    const limited = await emulator.facebook.limitedLogin({ email: "fay@example.com" });
    const classic = await emulator.facebook.classic({ email: "fay@example.com" });
    const me = await emulator.facebook.me(classic.accessToken, ["id"]);
    check(typeof me.id === "string" && limited.credential.idToken === limited.idToken, "facebook");
    done.push("facebook");

    await emulator.call("sendOobCode", { requestType: "EMAIL_SIGNIN", email: "eli@example.com", continueUrl: "https://app.example.com/" });
    const message: Message = await emulator.outbox.waitFor({ to: "eli@example.com", timeoutMs: 5_000 });
    const signedIn = await emulator.outbox.completeEmailLink(message);
    check(message.mode === "signIn" && signedIn.email === "eli@example.com", "email link");
    try {
      await emulator.outbox.waitFor({ to: "nobody@example.com", timeoutMs: 100 });
    } catch (error) {
      check(error instanceof WaitTimeoutError && error.saw.includes("EMAIL_SIGNIN"), "wait timeout");
    }
    done.push("outbox");

    const headful = await emulator.yahoo.signInHeadful({ email: "yo@example.com", name: "Yo" }, { authType: "signInViaPopup" });
    check(headful.providerId === "yahoo.com", "headful");
    const kid: string = await emulator.google.rotateKeys({ alg: "ES256" });
    check(kid.length > 0, "rotate");
    done.push("providers");

    const seeded = await emulator.users.seed([{ email: "s@example.com", password: "secret123", customClaims: { admin: true } }]);
    const found = await emulator.users.lookup({ uid: seeded[0].localId });
    check(found?.email === "s@example.com", "users");
    done.push("users");

    const later: Date = await emulator.clock.scoped(async (clock) => clock.advance(60));
    check(later instanceof Date && (await emulator.clock.read()).offsetSeconds === 0, "clock");
    check((await totpCode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", 59_000)) === "287082", "totp");
    done.push("clock");

    const tenant: AuthScope = await emulator.tenant("team-types");
    await tenant.users.seed({ email: "t@example.com" });
    check((await tenant.users.list()).length === 1 && tenant.tenantId === "team-types", "tenant");
    await emulator.relay.registerSenders("@shop.example");
    check((await emulator.relay.settings()).registeredSenders.includes("@shop.example"), "relay");
    done.push("scopes");

    try {
      await connect({ host: emulator.host }).call("signUp", { email: "s@example.com", password: "secret123" });
    } catch (error) {
      check(error instanceof AuthEmulatorError && error.code === "EMAIL_EXISTS" && error.status === 400, "error");
    }
    done.push("errors");
  } finally {
    await emulator.stop();
  }
  return done;
}
