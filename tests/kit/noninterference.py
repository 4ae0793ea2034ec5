"""Non-interference, the test of secrecy of DESIGN §5: change only what another role holds in
secret, re-render everything a role receives, and the bytes must not change.

`mail_for` renders one role's whole report mail (text, HTML and map) from a state and the events
of a stretch of play, exactly as the turn runner composes it, so two worlds that differ only in
another role's secrets can be compared byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moderator.core.contract import OBSERVER, Engine, Event
from moderator.service.reports import compose_report

PAYLOAD = {"address": "player@demo.test", "seq": 7, "message_id": "<report.7@demo.test>",
           "date": "2026-01-01T00:00:00+00:00", "subject": "report", "heading": "A report",
           "commitment": "c" * 64}


def mail_for(engine: Engine[Any], app: Any, state: Any, events: Sequence[Event], role: str) -> bytes:
    """The bytes of `role`'s report mail over `state`, with the events that role may see."""
    payload = dict(PAYLOAD, role=role, observer=role == OBSERVER)
    visible = [event for event in events if event.is_visible_to(role)]
    outgoing = compose_report(engine, app.environment, app.addressing, "leak-test", state, visible, payload)
    return outgoing.to_bytes()


def report_lines(mail: bytes) -> str:
    """The text part of a report mail, for an assertion message a person can read."""
    from email import message_from_bytes, policy

    message = message_from_bytes(mail, policy=policy.default)
    part = message.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""


def parts_masked(mail: bytes, masks: dict[str, str]) -> list[bytes]:
    """Every part of a mail, decoded, with each key of `masks` replaced by its value.

    A commitment is the one thing a role receives that is computed from another role's secret: a
    hiding hash of it (core/commitments.py).  Comparing two worlds, it is masked and checked apart.
    """
    from email import message_from_bytes, policy

    message = message_from_bytes(mail, policy=policy.default)
    found = []
    for part in message.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True) or b""
        for secret, mask in masks.items():
            payload = payload.replace(secret.encode(), mask.encode())
        found.append(payload)
    headers = b"".join(f"{k}: {v}\n".encode() for k, v in message.items())
    return [headers, *found]
