"""Notices: the moderator's mails that are not turn reports (invitations, welcomes, receipts,
reminders, announcements, the referee's answers), composed and queued in the caller's transaction."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from jinja2 import Environment
from sqlmodel import Session

from moderator.clock import Clock
from moderator.core.contract import REFEREE
from moderator.mail.compose import make_message_id, thread_headers, thread_root
from moderator.service.reports import Addressing, compose_notice
from moderator.service.table import Table
from moderator.store.models import Outbox
from moderator.store.outbox import queue_mail


class Notices:
    """Composes a notice in the house style and puts it in the outbox."""

    def __init__(self, clock: Clock, addressing: Addressing, environment: Environment):
        self.clock = clock
        self.addressing = addressing
        self.environment = environment

    def post(self, session: Session, table: Table | None, recipient: str, role: str, title: str,
             paragraphs: Sequence[str], receipt: dict[str, Any] | list[dict[str, Any]] | None = None,
             envelope: Sequence[str] = (),
             kind: str = "notice", body: str | None = None, message_id: str | None = None) -> Outbox:
        """Queue a notice to `recipient` with `session`'s transaction.

        A notice about a game (`table`) threads under the seat's other mail (the referee's under
        the referee's thread); `body` replaces the composed text.
        """
        now = self.clock.now()
        addressing = self.addressing
        game_id = table.game.id if table else "moderator"
        # Notices are not replayed, so a random part is fine (and needs no query).
        message_id = message_id or make_message_id(kind, game_id, role, 0, addressing.domain,
                                                   salt=secrets.token_hex(8))
        seat = table.seats.get(role) if table is not None else None
        threaded = table is not None and (seat is not None or role == REFEREE)
        label = "observer" if seat is not None and seat.kind == "observer" else role
        subject = notice_subject(game_id if table else None, label if threaded else None, title,
                                 addressing.orders_name)
        topic = f"[{game_id}/{role}] {table.engine.info.title}" if table else subject
        heading = f"{game_id}: {title}" if table else title
        in_reply_to = ""
        if table is not None and threaded:
            root = thread_root(table.game.id, role, addressing.domain)
            in_reply_to = (seat.last_report_message_id if seat else "") or (root if message_id != root else "")
        outgoing = compose_notice(self.environment, addressing, recipient, subject, heading, paragraphs,
                                  message_id, now, receipt, envelope, in_reply_to,
                                  f"<{game_id}.{addressing.domain}>" if table else "")
        if threaded:
            root = thread_root(game_id, role, addressing.domain)
            outgoing.references = tuple(dict.fromkeys(r for r in (root, in_reply_to) if r and r != message_id))
            outgoing.extra_headers = thread_headers(root, topic)
        if body is not None:
            outgoing.text = body
        return queue_mail(session, game_id=table.game.id if table else "",
                          recipient=recipient, message_id=message_id, subject=subject, kind=kind,
                          raw=outgoing.to_bytes(), created_at=now, next_attempt_at=now)


def notice_subject(game_id: str | None, role: str | None, title: str, orders_name: str) -> str:
    """`[vmt-0001] Axis: orders received`: which game, whose seat, and what the mail is about."""
    if game_id is None:
        return f"{orders_name}: {title}"
    if role is None:
        return f"[{game_id}] {title}"
    return f"[{game_id}] {role.replace('_', ' ').title()}: {title}"
