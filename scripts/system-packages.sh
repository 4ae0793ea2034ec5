#!/usr/bin/env bash
# system-packages.sh PACKAGE... — install the Debian packages the tests need, only those missing.
set -euo pipefail
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "[system-packages] installing ${missing[*]}" >&2
SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
# Postfix asks questions on install: "No configuration" writes no main.cf and starts nothing.
echo 'postfix postfix/main_mailer_type select No configuration' | $SUDO debconf-set-selections 2>/dev/null || true
echo 'postfix postfix/mailname string localhost' | $SUDO debconf-set-selections 2>/dev/null || true
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq || { sleep 5; $SUDO apt-get update -qq; }
$SUDO apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confold "${missing[@]}" >/dev/null
# On a systemd host the packages may start their own services; the tests use their own instances.
if [ -d /run/systemd/system ]; then
  $SUDO systemctl disable --now postgresql dovecot.socket dovecot postfix >/dev/null 2>&1 || true
fi
