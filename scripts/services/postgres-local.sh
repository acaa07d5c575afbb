#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and demos (issue 21).
#
#   scripts/services/postgres-local.sh start DIR [PORT]   # prints the URL
#   scripts/services/postgres-local.sh stop DIR
#
# `start` creates a cluster in DIR (which must not exist, or be one this
# script made and stopped), listening on 127.0.0.1:PORT only (default: a
# free port from 15432 up), with one database `tessel` owned by the user
# `tessel` (password `tessel`, md5 over TCP; the socket lives in DIR). The
# server runs as an unprivileged user: the caller when it is not root, else
# `nobody` (PostgreSQL refuses to run as root). It prints the connection
# URL, postgresql://tessel:tessel@127.0.0.1:PORT/tessel, and writes it to
# DIR/url. `stop` shuts the server down (fast mode); the directory stays
# for inspection until the caller removes it.
#
# With TESSEL_PG_OWNER_PID set, `start` also leaves a watcher that stops the
# server and removes DIR once that process is gone, so that a test run
# killed before its clean-up leaves no server behind.
#
# Debian 12's `postgresql` provides the binaries (/usr/lib/postgresql/15).
set -euo pipefail

die() { echo "postgres-local: $*" >&2; exit 1; }

find_bindir() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && { echo "$dir"; return; }
  done
  die "no PostgreSQL server found (Debian package: postgresql)"
}

# Runs "$@" as the server's user.
as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then
    setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
  else
    "$@"
  fi
}

free_port() {
  local port
  for port in $(seq 15432 15531); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  die "no free port in 15432-15531"
}

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || die "usage: $0 start|stop DIR [PORT]"
bindir=$(find_bindir)

case "$cmd" in
start)
  port=${3:-$(free_port)}
  if [ -e "$dir" ] && [ ! -f "$dir/url" ]; then
    die "$dir exists and is not a cluster of this script"
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ ! -d "$dir/data" ]; then
    printf 'tessel\n' > "$dir/pwfile"
    if [ "$(id -u)" -eq 0 ]; then
      chown -R nobody:nogroup "$dir"
      as_server_user test -w "$dir" ||
        die "$dir is not reachable by the user nobody (a parent directory is closed); use a directory under /tmp"
    fi
    as_server_user "$bindir/initdb" -D "$dir/data" -U tessel \
      --pwfile="$dir/pwfile" --auth-local=trust --auth-host=md5 \
      -E UTF8 --no-locale > "$dir/initdb.log" 2>&1 ||
      die "initdb failed: $(tail -3 "$dir/initdb.log")"
  fi
  as_server_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off" \
    start > /dev/null ||
    die "the server did not start: $(tail -3 "$dir/server.log")"
  if ! as_server_user "$bindir/psql" -h "$dir" -p "$port" -U tessel \
      -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'tessel'" |
      grep -q 1; then
    as_server_user "$bindir/createdb" -h "$dir" -p "$port" -U tessel tessel
  fi
  url="postgresql://tessel:tessel@127.0.0.1:$port/tessel"
  echo "$url" > "$dir/url"
  if [ -n "${TESSEL_PG_OWNER_PID:-}" ]; then
    setsid nohup sh -c "while kill -0 $TESSEL_PG_OWNER_PID 2>/dev/null; do sleep 2; done; \
      '$0' stop '$dir' > /dev/null 2>&1; rm -rf '$dir'" > /dev/null 2>&1 < /dev/null &
  fi
  echo "$url"
  ;;
stop)
  [ -d "$dir/data" ] || die "$dir has no cluster"
  as_server_user "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop > /dev/null
  ;;
*)
  die "usage: $0 start|stop DIR [PORT]"
  ;;
esac
