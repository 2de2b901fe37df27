"""The outbox through the kit: typed messages, waits with deadlines that say what came instead,
email links and codes applied, SMS codes, relay settings, and the app's own SMTP mail."""

import smtplib
import threading
import urllib.parse
from email.message import EmailMessage

import pytest

from auth_emulator import Delivery, Emulator, EmulatorError, Message, RelaySettings, WaitTimeout
from conftest import unique_email


def test_a_sign_in_link_is_a_typed_message_and_completes(outbox, auth_client, auth_emulator):
    email = unique_email("link")
    auth_client.send_sign_in_link(email, "https://app.example.com/done", canHandleCodeInApp=True,
                                  iOSBundleId="com.example.app")
    message = outbox.wait_for(email)
    assert isinstance(message, Message)
    assert (message.to, message.request_type, message.mode) == (email, "EMAIL_SIGNIN", "signIn")
    assert message.continue_url == "https://app.example.com/done"
    assert message.link.startswith(f"http://{auth_emulator.host}/emulator/action?mode=signIn&")
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(message.link).query)["oobCode"] == [message.code]
    assert message.app_link.startswith(f"https://{auth_emulator.project_id}.firebaseapp.com/__/auth/links?link=")
    assert message.delivery == Delivery("delivered") and message.sender.startswith("noreply@")
    signed_in = auth_client.complete_email_link(message)
    assert signed_in.email == email and signed_in.is_new_user
    # The app link alone carries the code too, as the Apple SDK reads it.
    auth_client.send_sign_in_link(email, canHandleCodeInApp=True, iOSBundleId="com.example.app")
    again = auth_client.complete_email_link(outbox.wait_for(email, after=message).app_link, email)
    assert again.uid == signed_in.uid and not again.is_new_user


def test_a_wait_started_first_gets_the_message_when_it_is_stored(outbox, auth_client):
    email = unique_email("waiter")
    found = []
    waiting = threading.Thread(target=lambda: found.append(outbox.wait_for(email, timeout=30)))
    waiting.start()
    auth_client.send_sign_in_link(email)
    waiting.join(60)
    assert [message.to for message in found] == [email]


def test_a_wait_that_runs_out_says_what_came_instead(outbox, auth_client, apple):
    minted = apple.mint(unique_email("hidden"), hide_email=True)
    user = auth_client.sign_in_with_idp(minted)
    apple.set_forwarding(minted.email, False)
    auth_client.send_email_verification(user.id_token)
    auth_client.send_sign_in_link(unique_email("someone-else"))
    with pytest.raises(WaitTimeout) as ran_out:
        outbox.wait_for(minted.email, timeout=1)
    report = str(ran_out.value)
    assert report.startswith(f"waited 1 s for a message to {minted.email} in project ")
    assert f"Bounced mail to {minted.email} (the user never got it):" in report
    assert "VERIFY_EMAIL" in report and "bounced: Forwarding off:" in report
    assert "EMAIL_SIGNIN to someone-else-" in report
    bounced = outbox.wait_for(minted.email, status="bounced", timeout=1)
    assert bounced.delivery.status == "bounced" and bounced.delivery.reason.startswith("Forwarding off:")


def test_after_waits_for_a_newer_message(outbox, auth_client):
    email = unique_email("twice")
    auth_client.send_sign_in_link(email)
    first = outbox.wait_for(email)
    with pytest.raises(WaitTimeout, match=f"newer than #{first.id}"):
        outbox.wait_for(email, after=first, timeout=1)
    auth_client.send_sign_in_link(email)
    second = outbox.wait_for(email, after=first)
    assert int(second.id) > int(first.id) and second.code != first.code
    assert [m.id for m in outbox.messages(email)] == [second.id, first.id]
    assert outbox.latest(email).id == second.id and outbox.latest(unique_email("nobody")) is None
    assert outbox.get(first.id).code == first.code


def test_apply_code_verifies_resets_and_refuses_a_used_code(outbox, auth_client, users):
    email = unique_email("codes")
    user = auth_client.sign_up(email, "secret123")
    auth_client.send_email_verification(user.id_token)
    verification = outbox.wait_for(email, requestType="VERIFY_EMAIL")
    assert verification.mode == "verifyEmail"
    auth_client.apply_code(verification)
    assert users.get(user.uid)["emailVerified"] is True
    auth_client.send_password_reset(email)
    reset = outbox.wait_for(email, requestType="PASSWORD_RESET")
    auth_client.apply_code(reset, new_password="secret456")
    assert auth_client.sign_in_with_password(email, "secret456").uid == user.uid
    with pytest.raises(EmulatorError) as used:
        auth_client.apply_code(reset, new_password="secret789")
    assert used.value.code == "INVALID_OOB_CODE"
    with pytest.raises(ValueError, match="needs new_password"):
        auth_client.apply_code(reset)


def test_sms_codes_wait_like_mail(outbox, auth_emulator, auth_client):
    phone = "+16505550123"
    session = auth_client.call("/identitytoolkit.googleapis.com/v1/accounts:sendVerificationCode",
                               {"phoneNumber": phone})["sessionInfo"]
    sms = outbox.wait_for_sms(phone, "PHONE_SIGN_IN")
    assert sms.to == phone and len(sms.code) == 6 and sms.code in sms.text
    answer = auth_client.call("/identitytoolkit.googleapis.com/v1/accounts:signInWithPhoneNumber",
                              {"sessionInfo": session, "code": sms.code})
    assert answer["phoneNumber"] == phone


def test_relay_settings_bounce_and_relay(outbox, auth_client, apple, auth_emulator):
    default_sender = f"noreply@{auth_emulator.project_id}.firebaseapp.com"
    assert outbox.relay_settings().registered_senders == [default_sender]
    minted = apple.mint(unique_email("real"), hide_email=True)
    user = auth_client.sign_in_with_idp(minted)
    changed = outbox.set_relay_settings(registered_senders=["support@example.com"], daily_limit=5,
                                        spf_failing_domains=["shop.example"])
    assert changed == RelaySettings(["support@example.com"], ["shop.example"], 5) == outbox.relay_settings()
    auth_client.send_email_verification(user.id_token)
    bounced = outbox.wait_for(minted.email, status="bounced")
    assert bounced.delivery.reason.startswith("Sender not registered:")
    outbox.set_relay_settings(registered_senders=[default_sender])
    auth_client.send_email_verification(user.id_token)
    relayed = outbox.wait_for(minted.email, after=bounced)
    assert relayed.delivery == Delivery("relayed", minted.real_email, None)
    outbox.clear()
    assert outbox.messages() == []


def test_the_apps_own_mail_over_smtp():
    with Emulator.start(args=["--smtp-port", "0"]) as emulator:
        host, port = emulator.smtp
        receipt = EmailMessage()
        receipt["From"], receipt["To"], receipt["Subject"] = "shop@shop.example", "buyer@example.com", "Receipt"
        receipt.set_content("Thanks.")
        receipt.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="r.pdf")
        with smtplib.SMTP(host, port, timeout=10) as smtp:
            smtp.send_message(receipt)
        message = emulator.outbox.wait_for("buyer@example.com")
        assert (message.source, message.subject, message.code) == ("smtp", "Receipt", None)
        assert [(a["filename"], a["size"]) for a in message.attachments] == [("r.pdf", 8)]


def test_tenant_outboxes_are_apart(auth_emulator):
    tenant = auth_emulator.tenant("team-a")
    email = unique_email("tenant")
    tenant.client.sign_up(email, "secret123")
    tenant.client.send_password_reset(email)
    assert tenant.outbox.wait_for(email).tenant_id == "team-a"
    assert auth_emulator.outbox.messages(email, tenantId="team-b") == []
    assert tenant.users.by_email(email) and auth_emulator.users.by_email(email) is None
