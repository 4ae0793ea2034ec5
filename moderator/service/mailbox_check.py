"""A player's own mailbox against the verified archive (issue 13, "Verifiable from the mailbox alone").

Every report printed, when it was sent, the seed commitment, the log head (the hash of the log's
newest entry, core/chain.py) and where each stream of draws stood; its events show each die with
its stream and counter.  The game-over report carries the archive.  So a player who kept the
mails of a game checks, with nothing but the mailbox:

- the archive itself (service/verify.py: the chain, the replay, every draw);
- that each report's log head is the hash of that entry of the archive's chain, so no entry up
  to it was changed, inserted, removed or renumbered after the report was sent, and that the
  entry after it is that report;
- that every die a report showed is that draw of the archive, made no later than the report;
- that the draw counters a report printed are where the archive's draws had brought each stream.

A mailbox is an mbox file or a Maildir directory (Python's mailbox module reads both).
"""

from __future__ import annotations

import email.policy
import gzip
import json
import mailbox
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from moderator.core.errors import ModeratorError

_SUBJECT_GAME = re.compile(r"\[([A-Za-z0-9_.-]+)\]")
_HEAD = re.compile(r"Log head: #(\d+) ([0-9a-f]{64})")
_COMMITMENT = re.compile(r"Seed commitment \(SHA-256\): ([0-9a-f]{64})")
_SEED = re.compile(r"the seed is revealed: ([0-9a-f]{64})")
_COUNTERS = re.compile(r"Next draws: ([^.]*)\.")
_DIE = re.compile(r"(\d+) \[([A-Za-z0-9_-]+)#(\d+)\]")
_ROLE = re.compile(r"^\s*ROLE (\S+)\s*$", re.MULTILINE)
ARCHIVE_SUFFIX = "-archive.json"


def unpacked(content: bytes | str) -> bytes | str:
    """An archive's text: gunzipped when it is gzip (as game-over mails carry it), else as given;
    raises OSError (gzip.BadGzipFile) for a damaged gzip."""
    if isinstance(content, bytes) and content[:2] == b"\x1f\x8b":
        return gzip.decompress(content)
    return content


class NotAMailbox(ModeratorError):
    """The path is neither an mbox file nor a Maildir directory."""


@dataclass(frozen=True)
class ShownReport:
    """What one report mail showed its player, read from its text."""

    game: str
    subject: str
    date: str
    head_seq: int
    head_hash: str
    commitment: str
    role: str
    seed: str = ""
    dice: tuple[tuple[int, str, int], ...] = ()
    counters: dict[str, int] | None = None

    @property
    def name(self) -> str:
        return f"mail {self.subject!r} ({self.date})"


@dataclass
class MailboxReading:
    """The game's reports in a mailbox, and the archives its game-over mails carried."""

    reports: list[ShownReport] = field(default_factory=list)
    archives: dict[str, dict[str, Any]] = field(default_factory=dict)
    unheaded: int = 0  # reports printed before reports carried a log head


def is_maildir(path: Path) -> bool:
    return path.is_dir() and (path / "cur").is_dir() and (path / "new").is_dir()


def read_mailbox(path: Path) -> list[EmailMessage]:
    """Every message of the mbox file or Maildir directory `path`.  Raises NotAMailbox."""
    if path.is_dir():
        if not is_maildir(path):
            raise NotAMailbox(f"{path} is a directory but not a Maildir (it has no cur/ and new/)")
        box: mailbox.Mailbox = mailbox.Maildir(path, factory=None, create=False)
    else:
        with path.open("rb") as file:
            if file.read(5) != b"From ":
                raise NotAMailbox(f"{path} is not an mbox file (it does not start with a 'From ' line)")
        box = mailbox.mbox(path, factory=None, create=False)
    return [email.message_from_bytes(box.get_bytes(key), policy=email.policy.default) for key in box.iterkeys()]


def read_reports(messages: Iterable[EmailMessage]) -> MailboxReading:
    """The reports of every game in `messages`, and the archive each game-over mail carried (the
    newest one per game, by its head)."""
    reading = MailboxReading()
    for message in messages:
        subject = str(message.get("Subject", ""))
        found = _SUBJECT_GAME.search(subject)
        if found is None:
            continue
        game = found.group(1)
        for part in message.iter_attachments():
            if (part.get_filename() or "") in (f"{game}{ARCHIVE_SUFFIX}", f"{game}{ARCHIVE_SUFFIX}.gz"):
                archive = json.loads(unpacked(part.get_content()))  # bytes as sent, text if a client re-typed it
                known = reading.archives.get(game)
                if known is None or archive["head"]["seq"] > known["head"]["seq"]:
                    reading.archives[game] = archive
        body = message.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        shown = _shown(game, subject, str(message.get("Date", "")), text, str(message.get("Message-ID", "")))
        if shown is not None:
            reading.reports.append(shown)
        elif "FAIR DICE" in text:
            reading.unheaded += 1
    return reading


def _shown(game: str, subject: str, date: str, raw: str, message_id: str = "") -> ShownReport | None:
    """What a report's text showed; None for a mail that is no report.  Its role is the one its "how to
    answer" block names, or, in the game-over report (which asks nothing), the one its Message-ID does."""
    text = " ".join(raw.split())  # the report is wrapped at 72 columns
    head = _HEAD.search(text)
    if head is None:
        return None
    commitment = _COMMITMENT.search(text)
    seed = _SEED.search(text)
    role = _ROLE.search(raw) or re.search(rf"<(?:report|resend)\.{re.escape(game)}\.([^.@>]+)\.", message_id)
    counters = _COUNTERS.search(text)
    return ShownReport(
        game=game, subject=subject, date=date, head_seq=int(head.group(1)), head_hash=head.group(2),
        commitment=commitment.group(1) if commitment else "", role=role.group(1) if role else "",
        seed=seed.group(1) if seed else "",
        dice=tuple((int(v), s, int(n)) for v, s, n in _DIE.findall(text)),
        counters=_read_counters(counters.group(1)) if counters else None)


def _read_counters(text: str) -> dict[str, int]:
    counters = {}
    for item in text.split(","):
        stream, _, number = item.strip().partition(" #")
        if number.isdigit():
            counters[stream] = int(number)
    return counters


def check_reports(reports: Iterable[ShownReport], archive: dict[str, Any]) -> list[str]:
    """Every report of the archive's game against the archive; one sentence per mismatch, naming the mail."""
    log = archive["log"]
    by_seq = {entry["seq"]: entry for entry in log}
    draws = {(d["stream"], d["n"]): d for d in archive["draws"]}
    problems: list[str] = []
    reports = [shown for shown in reports if shown.game == archive["game"]]
    sent_with = archive.get("sent_with")
    if sent_with and not any(shown.head_seq == sent_with["seq"] - 1 for shown in reports):
        problems.append(f"no report in the mailbox is the game-over report #{sent_with['seq']} that the archive "
                        f"says it came with")
    for shown in reports:
        problems += _head_problems(shown, archive, by_seq)
        problems += _dice_problems(shown, draws)
        if shown.counters is not None:
            reached = counters_after(archive["draws"], shown.head_seq)
            if shown.counters != reached:
                problems.append(f"{shown.name}: its next draws were {_listed(shown.counters)}; the archive's "
                                f"draws up to #{shown.head_seq} bring them to {_listed(reached)}")
    return problems


def _head_problems(shown: ShownReport, archive: dict[str, Any], by_seq: dict[int, dict[str, Any]]) -> list[str]:
    problems = []
    if shown.commitment and shown.commitment != archive["commitment"]:
        problems.append(f"{shown.name}: its seed commitment is {shown.commitment}, the archive's "
                        f"{archive['commitment']}")
    if shown.seed and shown.seed != archive["seed"]:
        problems.append(f"{shown.name}: it revealed the seed {shown.seed}, the archive says {archive['seed']}")
    entry = by_seq.get(shown.head_seq)
    if entry is None:
        problems.append(f"{shown.name}: its log head is #{shown.head_seq}, but the archive's log ends at "
                        f"#{archive['head']['seq']}: entries were removed")
    elif entry["hash"] != shown.head_hash:
        problems.append(f"{shown.name}: its log head is #{shown.head_seq} {shown.head_hash}, but the archive's "
                        f"entry #{shown.head_seq} has the hash {entry['hash']}: the log up to it was changed "
                        f"after the report was sent")
    report = by_seq.get(shown.head_seq + 1)
    if entry is not None and report is not None and (
            report["kind"] != "report" or (shown.role and report["role"] != shown.role)):
        problems.append(f"{shown.name}: it was logged as entry #{shown.head_seq + 1}, a report to "
                        f"{shown.role or 'its reader'}, but the archive's entry #{shown.head_seq + 1} is a "
                        f"{report['kind']}{' by ' + report['role'] if report['role'] else ''}")
    return problems


def _dice_problems(shown: ShownReport, draws: dict[tuple[str, int], dict[str, Any]]) -> list[str]:
    problems = []
    for value, stream, counter in shown.dice:
        draw = draws.get((stream, counter))
        if draw is None:
            problems.append(f"{shown.name}: it showed {value} [{stream}#{counter}], a draw the archive does not hold")
        elif draw["bound"] != 6 or draw["value"] + 1 != value:
            problems.append(f"{shown.name}: it showed {value} [{stream}#{counter}], but the archive's draw "
                            f"{stream}#{counter} is {draw['value'] + 1} on a d{draw['bound']}")
        elif draw["seq"] > shown.head_seq:
            problems.append(f"{shown.name}: it showed {value} [{stream}#{counter}], which the archive draws only "
                            f"at #{draw['seq']}, after the report's log head #{shown.head_seq}")
    return problems


def counters_after(draws: Iterable[dict[str, Any]], seq: int) -> dict[str, int]:
    """Where each stream stood after log entry `seq`: the counter after its last draw (the dice
    never go back, not even at a rollback: service/verify.py checks that)."""
    reached: dict[str, int] = {}
    for draw in draws:
        if draw["seq"] <= seq:
            reached[draw["stream"]] = max(reached.get(draw["stream"], 0), draw["n"] + 1)
    return dict(sorted(reached.items()))


def _listed(counters: dict[str, int]) -> str:
    return ", ".join(f"{stream} #{n}" for stream, n in sorted(counters.items())) or "nothing drawn"
