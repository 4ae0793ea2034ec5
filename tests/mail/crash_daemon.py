"""The daemon the crash test kills: `moderator serve`'s code, with the test game registered.

    python -m tests.mail.crash_daemon SETTINGS.json
"""

import json
import sys
from pathlib import Path

from moderator.app import App
from moderator.daemon import run_daemon
from moderator.registry import Registry
from moderator.settings import Settings
from tests.testgame.duel import engine


def main() -> None:
    settings = Settings(**json.loads(Path(sys.argv[1]).read_text()))
    app = App(settings, registry=Registry([engine]))
    app.migrate()
    run_daemon(app)


if __name__ == "__main__":
    main()
