#!/usr/bin/env bash
# Builds the named Python environment scripts/python/<name>.txt into a cache outside the clone,
#   ${ARCLIGHT_VENV_CACHE:-~/.cache/arclight/venvs}/<name>-<sha256 of the requirements, 12 hex>
# (a new requirements file → a new venv; an existing complete one is reused at once), under an flock so
# parallel callers wait for one build, and links it as .venvs/<name> in the clone (gitignored).
# Usage: bash scripts/python-env.sh <name>     prints the venv path on success
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NAME="${1:?usage: python-env.sh <name>}"
REQS="$ROOT/scripts/python/$NAME.txt"
PYTHON_BIN="${PYTHON:-python3}"
[[ -f "$REQS" ]] || { echo "python-env: no requirements file $REQS" >&2; exit 1; }
command -v "$PYTHON_BIN" >/dev/null || { echo "python-env: $PYTHON_BIN not found" >&2; exit 1; }

HASH="$( { cat "$REQS"; "$PYTHON_BIN" -c 'import sys; print(sys.version_info[:2])'; } | sha256sum | cut -c1-12)"
CACHE="${ARCLIGHT_VENV_CACHE:-$HOME/.cache/arclight/venvs}"
VENV="$CACHE/$NAME-$HASH"
mkdir -p "$CACHE" "$ROOT/.venvs"

link() {
  ln -sfn "$VENV" "$ROOT/.venvs/$NAME"
  echo "$VENV"
}

[[ -f "$VENV/.complete" ]] && { link; exit 0; }

exec 9>"$VENV.lock"
flock 9
if [[ ! -f "$VENV/.complete" ]]; then
  rm -rf "$VENV"
  "$PYTHON_BIN" -m venv "$VENV"
  LOG="$(mktemp -t "python-env-$NAME.XXXXXX.log")"
  START=$SECONDS
  if ! "$VENV/bin/python" -m pip install --disable-pip-version-check --progress-bar off \
    -r "$REQS" >"$LOG" 2>&1; then
    tail -50 "$LOG" >&2
    echo "python-env: pip install -r $REQS failed (log: $LOG)" >&2
    exit 1
  fi
  echo "python-env: built $NAME in $((SECONDS - START)) s at $VENV" >&2
  rm -f "$LOG"
  touch "$VENV/.complete"
fi
link
