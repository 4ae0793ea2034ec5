#!/usr/bin/env bash
# The one test command (README, .ci/run): installs what the tests need, starts the real servers
# on loopback, runs the linter (ruff) and the type checker (mypy), then the whole suite, and stops
# the servers.  Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
export MODERATOR_TEST_DIR=${MODERATOR_TEST_DIR:-/tmp/moderator-test}
mkdir -p "$MODERATOR_TEST_DIR"

bash scripts/system-packages.sh postgresql dovecot-imapd dovecot-lmtpd postfix openssl chromium
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
.venv/bin/python -m pip install -q -e '.[test]'
# The linter and the type checker, before any server starts: either failing fails the run
# (their settings are in pyproject.toml).
.venv/bin/ruff check moderator tests
.venv/bin/mypy

# The Compose specification's JSON schema, to check deploy/docker-compose.yml where no Docker
# engine runs: it ships inside the last Python docker-compose release (only the file is read).
export MODERATOR_COMPOSE_SCHEMA_DIR="$MODERATOR_TEST_DIR/compose-schema"
if ! ls "$MODERATOR_COMPOSE_SCHEMA_DIR"/docker_compose-*.whl >/dev/null 2>&1; then
  .venv/bin/python -m pip download -q --no-deps --only-binary :all: docker-compose==1.29.2 -d "$MODERATOR_COMPOSE_SCHEMA_DIR"
fi

export PG_DIR="$MODERATOR_TEST_DIR/pg" MAILSTACK_DIR="$MODERATOR_TEST_DIR/mail"
cleanup() {
  bash scripts/postgres.sh down >/dev/null 2>&1 || true
  bash scripts/mailstack.sh down >/dev/null 2>&1 || true
}
trap cleanup EXIT
bash scripts/postgres.sh up
export MODERATOR_TEST_POSTGRES_URL=$(bash scripts/postgres.sh url)
bash scripts/mailstack.sh up
. "$MAILSTACK_DIR/env.sh"
export MODERATOR_REQUIRE_SERVERS=1

set +e
# Two processes side by side (the machines have two cores): the tests that reach the shared servers
# (marked `servers` by tests/conftest.py) one after another in one, followed there by the slow folders
# marked `alongside`; every other test in the other.
SERVERS_LOG="$MODERATOR_TEST_DIR/servers.log"
.venv/bin/python -m pytest -q -p no:cacheprovider -m "servers or alongside" --durations=10 --basetemp="$MODERATOR_TEST_DIR/tmp-servers" "$@" >"$SERVERS_LOG" 2>&1 &
servers_pid=$!
.venv/bin/python -m pytest -q -p no:cacheprovider -m "not servers and not alongside" --durations=10 --basetemp="$MODERATOR_TEST_DIR/tmp-rest" "$@"
rc_rest=$?
wait $servers_pid
rc_servers=$?
echo "---------------- the tests that reach the servers, and the folders run alongside them ----------------"
cat "$SERVERS_LOG"
# 5 means "no test selected": one half may be empty when arguments pick only some tests.
if [ $rc_rest -eq 5 ] && [ $rc_servers -eq 5 ]; then rc=5
elif [ $rc_rest -ne 0 ] && [ $rc_rest -ne 5 ]; then rc=$rc_rest
elif [ $rc_servers -ne 0 ] && [ $rc_servers -ne 5 ]; then rc=$rc_servers
else rc=0; fi
set -e
[ $rc -eq 5 ] && { echo "no tests ran"; exit 1; }
exit $rc
