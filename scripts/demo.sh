#!/usr/bin/env bash
# The one demo command (README): installs the moderator and lets bots play a whole game by e-mail
# through the real loop on the embedded default (SQLite + local Maildir).  Arguments go to
# `moderator demo` (e.g. --game vmt --out demo-out --seed 7).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e .
exec .venv/bin/moderator demo "$@"
