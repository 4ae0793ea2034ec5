"""Benchmark (not a test): how much mail a careful player writes and receives (issue 12).

    .venv/bin/python benchmarks/mail_cadence.py [SEEDS [GAME ...]]

Plays each demo game to the end through the mail loop on SQLite and local Maildirs (as `moderator
demo` does), with the games' own bots answering every report (no silence: a careful player who
files scripts and standing orders where the game lets them), and counts for each player: mails
written per game turn, mails received per game turn, bytes received over the whole game, and the
largest whole-map and detail images.  Prints the median over SEEDS games (default 3) of each figure
beside its goal.
"""

from __future__ import annotations

import email
import email.policy
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from moderator.app import App  # noqa: E402
from moderator.clock import ManualClock, SystemClock  # noqa: E402
from moderator.demo import run_demo  # noqa: E402
from moderator.settings import load_settings  # noqa: E402

#: (figure, game) -> goal; "max" goals are upper bounds.
GOALS = {
    ("writes/turn", "vmt"): 1.5, ("writes/turn", "narva"): 1.1,
    ("receives/turn", "vmt"): 2.5, ("receives/turn", "narva"): 1.5,
    ("MB/player/game", "vmt"): 3.0, ("MB/player/game", "narva"): 3.0,
    ("map KB (max)", "vmt"): 150.0, ("map KB (max)", "narva"): 150.0,
    ("detail KB (max)", "vmt"): 40.0, ("detail KB (max)", "narva"): 40.0,
}


def play(game: str, seed: int) -> dict[str, float]:
    """One game: the figures of its worst-off player (the most mail written, received, bytes)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        settings = load_settings(None, data_dir=out, orders_address="moderator@referee.demo",
                                 domain="referee.demo", database_url="", inbox_maildir=None, outbox_dir=None)
        app = App(settings, clock=ManualClock(SystemClock().now()))
        app.migrate()
        summary = run_demo(app, game, out, seed, silence=0.0)
        turns = max(1, int(summary["turns"]))
        received, sizes, maps, details = {}, {}, [0], [0]
        for address in summary["sent_by"]:
            files = [p for box in ("new", "cur") for p in (mailbox(settings, address) / box).glob("*")]
            received[address] = len(files)
            sizes[address] = sum(p.stat().st_size for p in files)
            for path in files:
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                for part in message.walk():
                    name = part.get_filename() or ""
                    if part.get_content_maintype() == "image":
                        size = len(part.get_payload(decode=True) or b"") / 1024
                        (details if "detail" in name else maps).append(size)
        return {
            "writes/turn": max(summary["sent_by"].values()) / turns,
            "receives/turn": max(received.values()) / turns,
            "MB/player/game": max(sizes.values()) / 1e6,
            "map KB (max)": max(maps),
            "detail KB (max)": max(details),
            "turns": turns,
        }


def mailbox(settings: object, address: str) -> Path:
    from moderator.mail.maildir import mailbox_dir

    return mailbox_dir(settings.resolved_outbox, address)  # type: ignore[attr-defined]


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    games = sys.argv[2:] or ["vmt", "narva"]
    print(f"{'game':6} {'figure':16} {'median':>8} {'goal':>6}  verdict   (median of {seeds} games per game)")
    for game in games:
        runs = [play(game, seed) for seed in range(1, seeds + 1)]
        print(f"{game:6} {'game turns':16} {statistics.median(r['turns'] for r in runs):8.0f}")
        for figure in ("writes/turn", "receives/turn", "MB/player/game", "map KB (max)", "detail KB (max)"):
            value = statistics.median(r[figure] for r in runs)
            goal = GOALS[(figure, game)]
            if "KB" in figure and value == 0:
                print(f"{game:6} {figure:16} {'none':>8} {goal:6.1f}  (no such image in these games)")
                continue
            verdict = "meets" if value <= goal else "MISSES"
            print(f"{game:6} {figure:16} {value:8.2f} {goal:6.1f}  {verdict}")


if __name__ == "__main__":
    main()
