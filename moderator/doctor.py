"""`moderator doctor`: checks the configured mail servers and says in plain words what is wrong."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid

from imapclient.exceptions import LoginError

from moderator.mail.imap import connect
from moderator.mail.smtp import SmtpOutbound
from moderator.settings import ImapSettings, Settings


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def run_checks(settings: Settings, wait_seconds: float = 30) -> list[Check]:
    """Check the configured IMAP and SMTP servers; every failure is explained, none raised."""
    if settings.inbound != "imap" or settings.outbound != "smtp":
        return [Check("configuration", True, f"inbound={settings.inbound}, outbound={settings.outbound}: "
                                             f"the embedded Maildirs need no servers")]
    checks = check_imap(settings.imap)
    if not checks[0].ok:  # no login: nothing else can be checked
        return checks
    token = secrets.token_hex(8)
    sent = send_probe(settings, token)
    checks.append(sent)
    if sent.ok:
        checks.append(await_probe(settings, token, wait_seconds))
    return checks


def check_imap(imap: ImapSettings) -> list[Check]:
    """Log in; the folders exist (the missing working folders are created); IDLE is offered."""
    try:
        client = connect(imap, timeout=15)
    except LoginError as error:
        return [Check("IMAP login", False, f"the server refused the login for {imap.username}: {error}. "
                                           f"Check imap.username and MODERATOR_IMAP__PASSWORD.")]
    except Exception as error:  # every other failure is explained, not raised
        return [Check("IMAP connection", False, f"cannot reach {imap.host}:{imap.port} with "
                                                f"security={imap.security}: {type(error).__name__}: {error}")]
    checks = [Check("IMAP login", True, f"logged in to {imap.host}:{imap.port} as {imap.username}")]
    try:
        folders = (imap.folder, imap.processed_folder, imap.quarantine_folder)
        missing = [f for f in folders if not client.folder_exists(f)]
        for folder in missing:
            if folder != imap.folder:
                client.create_folder(folder)
        detail = ("folders present" if not missing else f"created missing folder(s): {', '.join(missing)}")
        checks.append(Check("IMAP folders", imap.folder not in missing, detail))
        checks.append(Check("IMAP IDLE", True, "the server offers IDLE" if client.has_capability("IDLE")
                            else "no IDLE: the daemon will poll every poll_seconds"))
    finally:
        client.logout()
    return checks


def send_probe(settings: Settings, token: str) -> Check:
    """Mail a probe carrying `token` to the orders address."""
    probe = EmailMessage()
    probe["From"] = settings.orders_address
    probe["To"] = settings.orders_address
    probe["Subject"] = f"moderator doctor probe {token}"
    probe["Message-ID"] = make_msgid(domain=settings.domain)
    probe["Auto-Submitted"] = "auto-generated"
    probe.set_content("A probe sent by `moderator doctor`; it is deleted when it arrives.\n")
    outbound = SmtpOutbound(settings.smtp, settings.orders_address)
    smtp = settings.smtp
    try:
        outbound.send(probe.as_bytes(), settings.orders_address, str(probe["Message-ID"]))
    except Exception as error:
        return Check("SMTP send", False, f"{smtp.host}:{smtp.port} did not take the probe: "
                                         f"{type(error).__name__}: {error}. Check smtp.security, smtp.username "
                                         f"and MODERATOR_SMTP__PASSWORD.")
    return Check("SMTP send", True, f"{smtp.host}:{smtp.port} accepted a probe to {settings.orders_address}")


def await_probe(settings: Settings, token: str, wait_seconds: float) -> Check:
    """Look for the probe in the moderator's folders until it comes back (then delete it)."""
    imap = settings.imap
    deadline = time.monotonic() + wait_seconds
    client = connect(imap, timeout=15)
    try:
        while time.monotonic() < deadline:
            for folder in (imap.folder, imap.quarantine_folder, imap.processed_folder):
                client.select_folder(folder)
                found = client.search(["SUBJECT", token])
                if found:
                    client.add_flags(found, [b"\\Deleted"])
                    client.expunge()
                    return Check("round trip", True, f"the probe came back into {folder} and was deleted")
            time.sleep(1)
    finally:
        client.logout()
    return Check("round trip", False, f"the probe sent to {settings.orders_address} did not arrive within "
                                      f"{wait_seconds:.0f} s: the SMTP server accepts mail but does not "
                                      f"deliver it to the IMAP mailbox the moderator reads")
