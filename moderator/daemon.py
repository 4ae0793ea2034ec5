"""`moderator serve`: APScheduler runs the jobs (DESIGN §7); each job is also a CLI command.

Jobs: poll the mailbox, run turns that are due, send reminders and held receipts, drain the outbox.  With an IMAP
server that has IDLE, a watcher on its own connection wakes the poll job as soon as mail arrives;
polling on a timer remains the fallback.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from apscheduler.schedulers.blocking import BlockingScheduler
from imapclient.exceptions import LoginError

from moderator.mail.imap import ImapInbox
from moderator.settings import Settings

log = logging.getLogger("moderator.daemon")


class Jobs(Protocol):
    """What the daemon runs: the application's jobs (moderator.app.App), each also a CLI command."""

    settings: Settings
    db: Any  # only its URL is logged (the store lies beside the daemon's layer)

    def poll_once(self) -> Any: ...
    def run_due(self) -> Any: ...
    def drain_outbox(self) -> Any: ...
    def send_reminders(self) -> Any: ...
    def send_held_receipts(self) -> Any: ...
    def tick(self) -> Any: ...


def _guarded(name: str, job: Callable[[], Any]) -> Callable[[], None]:
    def run() -> None:
        try:
            job()
        except LoginError as error:  # said once in full by the inbox; no traceback every minute
            log.warning("job %s: %s", name, error)
        except Exception:  # a failing job must not stop the daemon; it runs again next time
            log.exception("job %s failed", name)

    run.__name__ = name
    return run


def build_scheduler(app: Jobs) -> BlockingScheduler:
    scheduler = BlockingScheduler(timezone="UTC")
    poll = max(1.0, app.settings.poll_seconds)
    common = dict(max_instances=1, coalesce=True, replace_existing=True)
    scheduler.add_job(_guarded("poll", app.poll_once), "interval", seconds=poll, id="poll", **common)
    scheduler.add_job(_guarded("turns", app.run_due), "interval", seconds=max(1.0, poll / 2), id="turns", **common)
    scheduler.add_job(_guarded("outbox", app.drain_outbox), "interval", seconds=max(1.0, poll / 4), id="outbox",
                      **common)
    scheduler.add_job(_guarded("reminders", app.send_reminders), "interval", minutes=5, id="reminders", **common)
    scheduler.add_job(_guarded("receipts", app.send_held_receipts), "interval", minutes=1, id="receipts", **common)
    return scheduler


def idle_watcher(app: Jobs, scheduler: BlockingScheduler, stop: threading.Event) -> threading.Thread | None:
    """Wake the poll job when the IMAP server announces new mail (IDLE)."""
    if app.settings.inbound != "imap" or not app.settings.imap.idle:
        return None

    def watch() -> None:
        inbox = ImapInbox(app.settings.imap)
        while not stop.is_set():
            try:
                if inbox.wait_for_mail(timeout=25):
                    scheduler.modify_job("poll", next_run_time=datetime.now(UTC))
            except LoginError:  # logged by the inbox; wait as long as it backs off
                stop.wait(max(5.0, inbox.login_retry_in()))
            except Exception:  # reconnects with backoff inside; never let the watcher die
                log.exception("IDLE watcher failed; retrying")
                stop.wait(5)
        inbox.close()

    thread = threading.Thread(target=watch, name="imap-idle", daemon=True)
    thread.start()
    return thread


def run_daemon(app: Jobs) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    scheduler = build_scheduler(app)
    stop = threading.Event()

    def shutdown(*_: object) -> None:
        stop.set()
        scheduler.shutdown(wait=False)

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    log.info("moderator serving: inbound=%s outbound=%s database=%s", app.settings.inbound,
             app.settings.outbound, app.db.engine.url.render_as_string(hide_password=True))
    _guarded("start", app.tick)()
    idle_watcher(app, scheduler, stop)
    scheduler.start()
