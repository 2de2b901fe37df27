// The app's own mail: an emulator started with an SMTP listener, a message sent to it over a
// real socket (a plain SMTP conversation), read back from the outbox through the relay.
import assert from "node:assert/strict";
import { once } from "node:events";
import { connect as connectSocket } from "node:net";
import { test } from "node:test";
import { emulatorForThisFile, uniqueEmail } from "./support.js";

const emulator = await emulatorForThisFile({ smtpPort: 0 });

/** Sends one message as an SMTP client does, checking each reply's code. */
async function sendMail({ from, to, subject, text }) {
  const socket = connectSocket(emulator.smtp.port, emulator.smtp.host);
  socket.setEncoding("utf8");
  let buffered = "";
  const reply = async (expected) => {
    while (!/(^|\n)\d{3} [^\n]*\r\n$/.test(buffered)) {
      const [chunk] = await once(socket, "data");
      buffered += chunk;
    }
    const answer = buffered;
    buffered = "";
    assert.ok(answer.startsWith(String(expected)), `expected ${expected}, got ${answer}`);
  };
  const say = async (line, expected) => {
    socket.write(`${line}\r\n`);
    await reply(expected);
  };
  await reply(220);
  await say("EHLO kit.test", 250);
  await say(`MAIL FROM:<${from}>`, 250);
  await say(`RCPT TO:<${to}>`, 250);
  await say("DATA", 354);
  await say(`From: ${from}\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\n${text}\r\n.`, 250);
  await say("QUIT", 221);
  socket.destroy();
}

test("the app's mail lands in the outbox with source smtp, and goes through the relay", async () => {
  assert.ok(emulator.smtp && emulator.smtp.port > 0, JSON.stringify(emulator.smtp));
  const buyer = uniqueEmail("buyer");
  await sendMail({ from: "receipts@shop.example", to: buyer, subject: "Your receipt", text: "Thanks for your order." });
  const receipt = await emulator.outbox.waitFor({ to: buyer });
  assert.equal(receipt.source, "smtp");
  assert.equal(receipt.subject, "Your receipt");
  assert.equal(receipt.text.trim(), "Thanks for your order.");
  assert.equal(receipt.mode, null);

  const { token } = await emulator.apple.signIn({ email: uniqueEmail("hidden"), hideEmail: true });
  await sendMail({ from: "receipts@shop.example", to: token.email, subject: "Shipped", text: "On its way." });
  const bounced = await emulator.outbox.waitFor({ to: token.email, status: "bounced" });
  assert.match(bounced.delivery.reason, /^Sender not registered: receipts@shop\.example/);
  await emulator.relay.registerSenders("@shop.example");
  await sendMail({ from: "receipts@shop.example", to: token.email, subject: "Shipped", text: "On its way." });
  const relayed = await emulator.outbox.waitFor({ to: token.email, since: bounced.id });
  assert.deepEqual(relayed.delivery, { status: "relayed", forwardedTo: token.realEmail, reason: null });
  await emulator.relay.update({ spfFailingDomains: ["shop.example"] });
  await sendMail({ from: "receipts@shop.example", to: token.email, subject: "Shipped", text: "On its way." });
  const failedSpf = await emulator.outbox.waitFor({ to: token.email, status: "bounced", since: relayed.id });
  assert.match(failedSpf.delivery.reason, /^SPF failed: /);
});
