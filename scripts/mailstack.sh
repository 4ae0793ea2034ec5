#!/usr/bin/env bash
# mailstack.sh up|down|env — a real mail stack for the tests, on 127.0.0.1 only:
#   Dovecot (IMAP with STARTTLS, IMAPS, LMTP, SASL for Postfix) and Postfix (SMTP with STARTTLS
#   and AUTH, SMTPS) delivering into Dovecot through LMTP.  Debian's packages, each run from its
#   own configuration under $MAILSTACK_DIR; nothing under /etc/dovecot or /etc/postfix is used.
# Users: moderator, gm, alice, bob, carol, dave, erin and player01..player40 @test.example;
# the password of user X is "X-pw".
set -euo pipefail

DIR=${MAILSTACK_DIR:-/tmp/moderator-test/mail}
DOMAIN=${MAILSTACK_DOMAIN:-test.example}
IMAP=${MAILSTACK_IMAP_PORT:-11143}
IMAPS=${MAILSTACK_IMAPS_PORT:-11993}
LMTP=${MAILSTACK_LMTP_PORT:-11024}
SASL=${MAILSTACK_SASL_PORT:-11012}
SMTP=${MAILSTACK_SMTP_PORT:-11025}
SMTPS=${MAILSTACK_SMTPS_PORT:-11465}
VMAIL=65534  # nobody:nogroup own the mailboxes
DC=$DIR/dovecot
PF=$DIR/postfix

users() {
  echo moderator gm alice bob carol dave erin
  for n in $(seq -w 1 40); do echo "player$n"; done
}

note() { printf '[mailstack] %s\n' "$*" >&2; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() {
  local port=$1 tries
  for tries in $(seq 1 200); do port_open "$port" && return 0; sleep 0.05; done
  note "port $port did not open"; return 1
}

configure() {
  install -d -m 755 "$DIR" "$DC" "$PF"
  install -d -m 755 -o $VMAIL -g $VMAIL "$DIR/home"
  if [ ! -s "$DIR/tls.crt" ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
      -subj /CN=localhost -addext 'subjectAltName=DNS:localhost,IP:127.0.0.1' \
      -keyout "$DIR/tls.key" -out "$DIR/tls.crt" 2>/dev/null
    chmod 600 "$DIR/tls.key"
  fi
  : > "$DC/passwd"; : > "$PF/recipients"
  for u in $(users); do
    echo "$u@$DOMAIN:{PLAIN}$u-pw:$VMAIL:$VMAIL::$DIR/home/$u::" >> "$DC/passwd"
    echo "$u@$DOMAIN OK" >> "$PF/recipients"
  done
  cat > "$DC/dovecot.conf" <<EOF
instance_name = moderator-test
base_dir = $DC/run
state_dir = $DC/state
log_path = $DC/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
ssl = yes
ssl_cert = <$DIR/tls.crt
ssl_key = <$DIR/tls.key
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $DC/passwd
}
userdb {
  driver = passwd-file
  args = username_format=%u $DC/passwd
}
mail_location = maildir:~/Maildir
first_valid_uid = 1000
namespace inbox {
  inbox = yes
  separator = /
  mailbox Processed {
    auto = subscribe
  }
  mailbox Quarantine {
    auto = subscribe
  }
  mailbox Sent {
    auto = subscribe
    special_use = \\Sent
  }
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP
  }
}
service auth {
  inet_listener sasl {
    address = 127.0.0.1
    port = $SASL
  }
}
# Wrong passwords are tested on purpose: no growing login penalty for 127.0.0.1.
service anvil {
  unix_listener anvil-auth-penalty {
    path = anvil-auth-penalty-off
  }
}
# Tests open many moderator connections in parallel (and killed daemons leave some behind).
protocol imap {
  mail_max_userip_connections = 200
}
# user+Folder@domain is delivered into that folder (the moderator's sent copies use it).
recipient_delimiter = +
protocol lmtp {
  postmaster_address = postmaster@$DOMAIN
  lmtp_save_to_detail_mailbox = yes
}
EOF
  cat > "$PF/main.cf" <<EOF
compatibility_level = 3.6
queue_directory = $PF/spool
data_directory = $PF/data
maillog_file = $PF/maillog
maillog_file_prefixes = $DIR
myhostname = mx.$DOMAIN
mydomain = $DOMAIN
myorigin = $DOMAIN
mydestination =
local_recipient_maps =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
virtual_mailbox_domains = $DOMAIN
virtual_mailbox_maps = texthash:$PF/recipients
virtual_transport = lmtp:inet:127.0.0.1:$LMTP
default_transport = error:no delivery outside the test domain
relay_transport = error:no delivery outside the test domain
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
smtputf8_enable = yes
recipient_delimiter = +
message_size_limit = 52428800
biff = no
smtpd_tls_cert_file = $DIR/tls.crt
smtpd_tls_key_file = $DIR/tls.key
smtpd_tls_security_level = may
smtpd_tls_auth_only = yes
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$SASL
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
EOF
  cat > "$PF/master.cf" <<EOF
127.0.0.1:$SMTP  inet n - n - - smtpd
127.0.0.1:$SMTPS inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
  -o smtpd_tls_security_level=encrypt
pickup    unix  n - n 60 1 pickup
cleanup   unix  n - n -  0 cleanup
qmgr      unix  n - n 300 1 qmgr
tlsmgr    unix  - - n 1000? 1 tlsmgr
rewrite   unix  - - n -  - trivial-rewrite
bounce    unix  - - n -  0 bounce
defer     unix  - - n -  0 bounce
trace     unix  - - n -  0 bounce
verify    unix  - - n -  1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n -  - proxymap
smtp      unix  - - n -  - smtp
showq     unix  n - n -  - showq
error     unix  - - n -  - error
retry     unix  - - n -  - error
discard   unix  - - n -  - discard
lmtp      unix  - - n -  - lmtp
anvil     unix  - - n -  1 anvil
scache    unix  - - n -  1 scache
postlog   unix-dgram n - n - 1 postlogd
EOF
}

down() {
  local pids=() pid n
  if [ -f "$PF/main.cf" ] && pid=$(tr -d ' ' < "$PF/spool/pid/master.pid" 2>/dev/null) && kill -0 "$pid" 2>/dev/null; then
    postfix -c "$PF" stop </dev/null >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
    pids+=("$pid")
  fi
  if pid=$(cat "$DC/run/master.pid" 2>/dev/null) && kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    pids+=("$pid")
  fi
  for pid in "${pids[@]}"; do
    for n in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  done
}

up() {
  local start=$SECONDS port
  down
  for port in $IMAP $IMAPS $LMTP $SASL $SMTP $SMTPS; do
    if port_open "$port"; then note "port $port is taken"; exit 1; fi
  done
  configure
  rm -rf "$DC/run"  # stale sockets of an earlier run break the login-penalty switch
  install -d -m 755 "$DC/state"
  # The daemons must not keep the caller's stdout open, or a CI pipe never ends.
  dovecot -c "$DC/dovecot.conf" </dev/null >>"$DC/start.log" 2>&1 || { cat "$DC/start.log" >&2; exit 1; }
  install -d -m 755 "$PF/spool"
  install -d -m 700 -o postfix "$PF/data"
  postfix -c "$PF" start </dev/null >>"$PF/start.log" 2>&1 || { tail "$PF/start.log" "$PF/maillog" >&2; exit 1; }
  for port in $IMAP $IMAPS $LMTP $SASL $SMTP $SMTPS; do wait_for "$port"; done
  env_lines > "$DIR/env.sh"
  note "up in $((SECONDS - start)) s (IMAP $IMAP, SMTP $SMTP)"
}

env_lines() {
  cat <<EOF
export MAILSTACK_DIR=$DIR MAILSTACK_DOMAIN=$DOMAIN MAILSTACK_HOST=127.0.0.1
export MAILSTACK_IMAP_PORT=$IMAP MAILSTACK_IMAPS_PORT=$IMAPS MAILSTACK_SMTP_PORT=$SMTP MAILSTACK_SMTPS_PORT=$SMTPS
export MAILSTACK_CA=$DIR/tls.crt MAILSTACK_DOVECOT_CONF=$DC/dovecot.conf
EOF
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  env) env_lines ;;
  *) echo "usage: $0 up|down|env" >&2; exit 2 ;;
esac
