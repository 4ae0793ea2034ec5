"""`moderator serve`: APScheduler runs the jobs (DESIGN §7); each job is also a CLI command."""

from __future__ import annotations

import logging
import signal

from apscheduler.schedulers.blocking import BlockingScheduler

log = logging.getLogger("moderator.daemon")


def _guarded(name: str, job):
    def run() -> None:
        try:
            job()
        except Exception:  # a failing job must not stop the daemon; it runs again next time
            log.exception("job %s failed", name)

    run.__name__ = name
    return run


def build_scheduler(app) -> BlockingScheduler:
    scheduler = BlockingScheduler(timezone="UTC")
    poll = max(1.0, app.settings.poll_seconds)
    common = dict(max_instances=1, coalesce=True, replace_existing=True)
    scheduler.add_job(_guarded("poll", app.poll_once), "interval", seconds=poll, id="poll", **common)
    scheduler.add_job(_guarded("turns", app.run_due), "interval", seconds=max(5.0, poll / 2), id="turns", **common)
    scheduler.add_job(_guarded("outbox", app.drain_outbox), "interval", seconds=max(2.0, poll / 4), id="outbox",
                      **common)
    reminders = getattr(app, "send_reminders", None)
    if reminders is not None:
        scheduler.add_job(_guarded("reminders", reminders), "interval", minutes=5, id="reminders", **common)
    return scheduler


def run_daemon(app) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    scheduler = build_scheduler(app)

    def stop(*_):
        scheduler.shutdown(wait=False)

    signal.signal(signal.SIGTERM, stop)
    log.info("moderator serving: inbound=%s outbound=%s database=%s", app.settings.inbound,
             app.settings.outbound, app.db.engine.url.render_as_string(hide_password=True))
    app.tick()
    scheduler.start()
