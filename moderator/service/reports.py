"""Turn reports: rendered only from a role's view and the events that role may see (DESIGN §5, §10).

`compose_report` is a pure function of the replayed state, the visible events and the report's
log payload, so replaying a game re-renders every report byte for byte.
"""

from __future__ import annotations

import gzip
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from jinja2 import Environment, TemplateNotFound

from moderator.core.chain import canonical_json
from moderator.core.contract import OBSERVER, Engine, Event, View
from moderator.core.grammar import Grammar
from moderator.mail.commands import PLAYER, commands_for, help_lines
from moderator.mail.compose import Attachment, Outgoing, thread_headers, thread_root
from moderator.render.texts import render
from moderator.service.options import shown_options
from moderator.service.standing import (
    ASKED_FIRST,
    CHANGE_NOTE,
    answered_line,
    fold_repeats,
    standing_in_force,
    told_in_receipts,
)


@dataclass(frozen=True)
class Addressing:
    orders_address: str
    orders_name: str
    domain: str


def local_time(when: datetime, tz_name: str) -> str:
    try:
        zone = ZoneInfo(tz_name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = when.astimezone(zone)
    return local.strftime("%a %d %b %Y %H:%M ") + (local.tzname() or tz_name)


def narrate(engine: Engine[Any], event: Event, role: str) -> str:
    """Core events are narrated here; every other event by its game."""
    if event.kind == "core.started":
        return "The game begins."
    if event.kind == "core.defaulted":
        who = event.data["role"].replace("_", " ").title()
        if "prompt" not in event.data:  # another role's question (service/turns.defaulted_events)
            title = engine.grammar.kind_titles.get(event.data["kind"], event.data["kind"])
            return f"{who} did not answer in time; their default answer was applied (question: {title})."
        return (f"{who} did not answer in time ({event.data['prompt']}); "
                f"the default was applied: {event.data['answer']}.")
    return engine.narrate(event, role)


def decisions_for(engine: Engine[Any], state: Any, role: str, deadlines: dict[str, str],
                  tz: str) -> list[dict[str, Any]]:
    items = []
    for decision in engine.pending(state):
        if decision.role != role:
            continue
        due = deadlines.get(decision.key)
        shown, more = shown_options(decision.options)
        items.append({
            "key": decision.key, "prompt": decision.prompt, "options": shown, "more_options": more,
            "alternatives": any("|" in option for option in shown),
            "default": decision.default, "secret": decision.secret,
            "deadline": local_time(datetime.fromisoformat(due), tz) if due else "the referee's call",
            "kind": decision.kind,
        })
    return items


def situation_templates(environment: Environment, engine_id: str) -> tuple[str, str]:
    text = f"games/{engine_id}/situation.txt.j2"
    html = f"games/{engine_id}/situation.html.j2"
    for name in (text, html):
        try:
            environment.get_template(name)
        except TemplateNotFound:
            raise TemplateNotFound(f"the game {engine_id} has no template {name}") from None
    return text, html


def compose_report(engine: Engine[Any], environment: Environment, addressing: Addressing, game_id: str,
                   state: Any, events: Sequence[Event], payload: dict[str, Any]) -> Outgoing:
    """Build one report mail from the role's view, its visible events and the logged payload."""
    context, view = report_context(engine, environment, addressing, game_id, state, events, payload)
    # The whole map comes once per game turn (payload "whole_map", logged so replay renders the same
    # mail); a later mail of the turn has the close-up of what changed only.
    map_png = engine.map_png(view) if payload.get("whole_map", True) else None
    detail_png = engine.map_detail_png(view) if not map_png or engine.info.detail_with_whole_map else None
    if not map_png:
        context["map_cid"] = None
    context["detail_cid"] = f"detail.{game_id}.{payload['seq']}@{addressing.domain}" if detail_png else None
    text = render(environment, "mail/report.txt.j2", **context)
    html = render(environment, "mail/report.html.j2", **context)
    inline = []
    attachments = []
    if map_png:
        inline.append(Attachment(f"{game_id}-{payload['seq']}-map.png", map_png, "image", "png",
                                 cid=context["map_cid"]))
    if detail_png:
        inline.append(Attachment(f"{game_id}-{payload['seq']}-detail.png", detail_png, "image", "png",
                                 cid=context["detail_cid"]))
    calendar = deadline_calendar(game_id, payload, context["decisions"], addressing.domain)
    if calendar:
        attachments.append(Attachment("deadline.ics", calendar, "text", "calendar"))
    if context["archive_file"]:
        archive = archive_bytes(payload["archive"])
        attachments.append(Attachment(context["archive_file"], archive, "application", "gzip"))
    return Outgoing(
        recipient=payload["address"], subject=payload["subject"], text=text, html=html,
        message_id=payload["message_id"], date=datetime.fromisoformat(payload["date"]),
        sender=addressing.orders_address, sender_name=addressing.orders_name,
        reply_to=addressing.orders_address, inline=inline, attachments=attachments,
        in_reply_to=payload.get("in_reply_to", ""), references=tuple(payload.get("references", [])),
        list_id=f"<{game_id}.{addressing.domain}>",
        extra_headers=thread_headers(thread_root(game_id, payload["role"], addressing.domain),
                                     payload.get("thread_topic", payload["subject"])),
    )


def deadline_calendar(game_id: str, payload: dict[str, Any], decisions: list[dict[str, Any]],
                      domain: str) -> bytes | None:
    """An .ics event at the earliest deadline, so the player's calendar can remind them."""
    from datetime import timedelta

    from icalendar import Calendar
    from icalendar import Event as CalendarEvent

    dues = [(datetime.fromisoformat(due), key) for key, due in payload.get("deadlines", {}).items()
            if any(d["key"] == key for d in decisions)]
    if not dues:
        return None
    due, key = min(dues)
    calendar = Calendar()
    calendar.add("prodid", "-//moderator//play by e-mail//EN")
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    event = CalendarEvent()
    event.add("uid", f"{game_id}.{payload['role']}.{key}@{domain}")
    event.add("dtstamp", datetime.fromisoformat(payload["date"]))
    event.add("dtstart", due)
    event.add("dtend", due + timedelta(minutes=15))
    event.add("summary", f"{game_id}: your orders are due ({payload['role']})")
    event.add("description", "; ".join(d["prompt"] for d in decisions))
    calendar.add_component(event)
    ical: bytes = calendar.to_ical()
    return ical


def report_text(engine: Engine[Any], environment: Environment, addressing: Addressing, game_id: str, state: Any,
                events: Sequence[Event], payload: dict[str, Any]) -> str:
    """The plain-text report alone (what the leak tests read for every role at every step)."""
    context, _ = report_context(engine, environment, addressing, game_id, state, events, payload)
    context["detail_cid"] = None
    return render(environment, "mail/report.txt.j2", **context)


def report_context(engine: Engine[Any], environment: Environment, addressing: Addressing, game_id: str, state: Any,
                   events: Sequence[Event], payload: dict[str, Any]) -> tuple[dict[str, Any], View]:
    role = payload["role"]
    view_role = OBSERVER if payload.get("observer") else role
    view = engine.view(state, view_role)
    tz = payload.get("tz", "UTC")
    lines = [narrate(engine, event, view_role) for event in events if event.is_visible_to(view_role)]
    decisions = [] if payload.get("observer") else decisions_for(engine, state, role, payload.get("deadlines", {}), tz)
    text_template, html_template = situation_templates(environment, engine.info.id)
    outcome = payload.get("outcome")
    heading = payload["heading"]
    map_cid = f"map.{game_id}.{payload['seq']}@{addressing.domain}"
    receipts = payload.get("receipts")
    if receipts is None:  # a report logged before receipts could wait for it carried one
        receipts = [payload["receipt"]] if payload.get("receipt") else []
    context = dict(
        heading=heading, receipts=receipts, holds=payload.get("holds", []), events=lines,
        summary=summary_line(decisions, outcome, bool(payload.get("observer"))),
        answered=[answered_line(a) for a in fold_repeats(told_in_receipts(payload.get("answered", []), receipts))],
        in_force=[] if payload.get("observer") else standing_in_force(engine, role, payload.get("standing", [])),
        change_note=CHANGE_NOTE, asked_first=ASKED_FIRST if payload.get("ask_first") else "",
        view=view, role=role, decisions=decisions, outcome=outcome, queued=payload.get("queued", []),
        standing=payload.get("standing", []), agenda=payload.get("agenda", []), expired=payload.get("expired", []),
        unused=payload.get("unused", []),
        commitment=payload["commitment"], seed=payload.get("seed"), head=payload.get("head"),
        counters=None if payload.get("counters") is None else (
            ", ".join(f"{stream} #{n}" for stream, n in payload["counters"].items()) or "nothing drawn yet"),
        archive_file=archive_file_name(game_id) if payload.get("archive") else None,
        orders_address=addressing.orders_address, envelope=payload.get("envelope", []),
        situation_text=text_template, situation_html=html_template, map_cid=map_cid,
        map_alt=f"Map of {game_id} as {role} sees it", game_id=game_id,
        map_turn=None if payload.get("whole_map", True) else payload.get("map_turn"),
    )
    return context, view


def archive_file_name(game_id: str) -> str:
    """The name the game-over report gives the game's archive (service/mailbox_check.py looks for it)."""
    return f"{game_id}-archive.json.gz"


def archive_bytes(archive: dict[str, Any]) -> bytes:
    """The archive as the game-over mail carries it: its canonical JSON gzipped (a seventh of the bytes,
    issue 12's mail budget), with no time stamp so that a replayed mail is byte-identical."""
    return gzip.compress(canonical_json(archive).encode("utf-8"), compresslevel=9, mtime=0)


def summary_line(decisions: Sequence[dict[str, Any]], outcome: str | None, observer: bool) -> str:
    """The first line under the heading: is anything asked, and by when."""
    if outcome:
        return "The game is over: " + outcome
    if observer:
        return "You are watching this game: this report is for reading only."
    if not decisions:
        return "Nothing is asked of you now; this report tells you how the game went on."
    count = f"{len(decisions)} question{'s' if len(decisions) > 1 else ''}"
    return f"Your move: {count} below, the first due {decisions[0]['deadline']}."


def compose_notice(environment: Environment, addressing: Addressing, recipient: str, subject: str,
                   heading: str, paragraphs: Sequence[str], message_id: str, date: datetime,
                   receipt: dict[str, Any] | list[dict[str, Any]] | None = None, envelope: Sequence[str] = (),
                   in_reply_to: str = "", list_id: str = "") -> Outgoing:
    receipts = receipt if isinstance(receipt, list) else [receipt] if receipt else []
    text = render(environment, "mail/notice.txt.j2", heading=heading, paragraphs=list(paragraphs),
                  receipts=receipts, envelope=list(envelope), orders_address=addressing.orders_address)
    return Outgoing(recipient=recipient, subject=subject, text=text, message_id=message_id, date=date,
                    sender=addressing.orders_address, sender_name=addressing.orders_name,
                    reply_to=addressing.orders_address, in_reply_to=in_reply_to,
                    references=(in_reply_to,) if in_reply_to else (), list_id=list_id)


def opening_line(grammar: Grammar, kind: str) -> str:
    """`card line (ASSAULT, END, PASS, PLAY, REDEPLOY)`: a kind that opens a round, as HELP names it."""
    words = sorted({str(spec.first_keyword) for spec in grammar.specs if spec.kind == kind})
    return f"{kind} line ({', '.join(words)})"


def help_text(environment: Environment, engine: Engine[Any]) -> str:
    """The player's HELP mail: the commands (mail/commands.py), then the game's orders and tests."""
    grammar = engine.grammar
    kinds = sorted({spec.kind for spec in grammar.specs})
    return render(environment, "mail/help.txt.j2", title=engine.info.title, sections=grammar.help_sections(),
                  conditions=list(grammar.conditions.values()), kinds=kinds,
                  opening=[opening_line(grammar, kind) for kind in engine.info.opening_kinds],
                  commands=help_lines(commands_for(PLAYER)), tables=engine.reference_tables())
