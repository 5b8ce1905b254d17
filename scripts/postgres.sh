#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for Arclight's tests and benchmarks and prints its URL on stdout.
# Idempotent: installs the Debian `postgresql` package when no server binaries are found, creates the cluster
# once (outside the clone), starts it if it is not running. Logs go to stderr.
#
#   ARCLIGHT_POSTGRES_URL=$(scripts/postgres.sh)      # postgres://arclight:arclight@127.0.0.1:55432/postgres
#   scripts/postgres.sh stop                           # stops the server (the data directory stays)
#
# Environment: ARCLIGHT_PG_PORT (55432), ARCLIGHT_PG_DATA (~/.cache/arclight/pg, or /tmp/arclight-pg-$UID).
set -euo pipefail

port="${ARCLIGHT_PG_PORT:-55432}"
cache_root="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/arclight"
data="${ARCLIGHT_PG_DATA:-$cache_root/pg}"
log() { printf 'postgres.sh: %s\n' "$*" >&2; }

find_bindir() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]] && { echo "$dir"; return 0; }
  done
  command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1 && { dirname "$(command -v pg_ctl)"; return 0; }
  return 1
}

bindir="$(find_bindir || true)"
if [[ -z "$bindir" ]]; then
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    log "no PostgreSQL server found; install it (Debian: apt-get install postgresql) or set ARCLIGHT_POSTGRES_URL"
    exit 1
  fi
  log "installing the Debian postgresql package"
  apt-get update >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -o DPkg::Lock::Timeout=900 postgresql >&2
  bindir="$(find_bindir)"
fi

# PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` system user.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}
if [[ $(id -u) -eq 0 && -z "${ARCLIGHT_PG_DATA:-}" ]]; then data="/tmp/arclight-pg-root"; fi

if [[ "${1:-}" == "stop" ]]; then
  [[ -f "$data/postmaster.pid" ]] && as_owner "$bindir/pg_ctl" -D "$data" -m fast -w stop >&2
  exit 0
fi

if [[ ! -f "$data/PG_VERSION" ]]; then
  log "creating a cluster in $data"
  mkdir -p "$data"
  [[ $(id -u) -eq 0 ]] && chown postgres "$data"
  chmod 700 "$data"
  pwfile="$(mktemp)"
  echo arclight >"$pwfile"
  [[ $(id -u) -eq 0 ]] && chown postgres "$pwfile"
  as_owner "$bindir/initdb" -D "$data" -U arclight --pwfile="$pwfile" --auth=scram-sha-256 \
    -E UTF8 --locale=C.UTF-8 >&2
  rm -f "$pwfile"
  cat >>"$data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$data'
max_connections = 200
shared_buffers = 128MB
fsync = on
EOF
fi

if ! as_owner "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  log "starting PostgreSQL on 127.0.0.1:$port"
  as_owner "$bindir/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 start >&2
fi
echo "postgres://arclight:arclight@127.0.0.1:$port/postgres"
