#!/usr/bin/env bash
# Creates the Python environments used by the interop tests.
#   bash scripts/python-env.sh            upstream agentlightning 0.3.0 in .venv (idempotent)
#   bash scripts/python-env.sh trainers   the real trainers (TRL, verl, openpipe-art, CPU training) from
#                                         scripts/python/trainers.txt, see scripts/python/README.md
# Quiet; exits non-zero with the pip log on failure.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -gt 0 && "$1" != "upstream" ]]; then
  exec bash "$ROOT/scripts/python/named-env.sh" "$@"
fi
VENV="${ARCLIGHT_VENV:-$ROOT/.venv}"
PYTHON_BIN="${PYTHON:-python3}"
# Pinned requirements: upstream under test + what the interop scripts import directly.
# OpenTelemetry is pinned to 1.39.1 (current when agentlightning 0.3.0 was released): from 1.45 the OTLP/HTTP
# exporter fixes its endpoint at construction, so agentlightning's LightningStoreOTLPExporter (which swaps
# `_endpoint` per rollout) silently exports to localhost:4318 instead of the store.
OTEL_VERSION="1.39.1"
REQUIREMENTS=(
  "agentlightning==0.3.0"
  "opentelemetry-api==$OTEL_VERSION"
  "opentelemetry-sdk==$OTEL_VERSION"
  "opentelemetry-exporter-otlp==$OTEL_VERSION"
  "opentelemetry-exporter-otlp-proto-http==$OTEL_VERSION"
  "opentelemetry-exporter-otlp-proto-grpc==$OTEL_VERSION"
  "opentelemetry-exporter-otlp-proto-common==$OTEL_VERSION"
  "opentelemetry-proto==$OTEL_VERSION"
  # @arclight/export's format validator (packages/export/test/interop/python/validate_exports.py) reads Parquet with
  # pyarrow and loads the JSONL datasets the way TRL does (datasets.load_dataset("json")).
  "pyarrow==26.0.1"
  "datasets==5.2.0"
)

fail() {
  echo "python-env: $*" >&2
  exit 1
}

satisfied() {
  [[ -x "$VENV/bin/python" ]] || return 1
  "$VENV/bin/python" - "${REQUIREMENTS[@]}" <<'PY' >/dev/null 2>&1
import sys
from importlib.metadata import version, PackageNotFoundError
for req in sys.argv[1:]:
    name, _, want = req.partition("==")
    try:
        if version(name) != want:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
}

if satisfied; then
  exit 0
fi

command -v "$PYTHON_BIN" >/dev/null || fail "$PYTHON_BIN not found"
"$PYTHON_BIN" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
  || fail "agentlightning 0.3.0 needs Python >= 3.10 (found $("$PYTHON_BIN" --version 2>&1))"

if [[ ! -x "$VENV/bin/python" ]]; then
  "$PYTHON_BIN" -m venv "$VENV" || fail "could not create venv at $VENV"
fi

LOG="$(mktemp -t python-env.XXXXXX.log)"
if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${REQUIREMENTS[@]}" >"$LOG" 2>&1; then
  cat "$LOG" >&2
  fail "pip install failed (log above, also in $LOG)"
fi
rm -f "$LOG"

satisfied || fail "installed, but the pinned versions are still not present in $VENV"
"$VENV/bin/python" -c 'import agentlightning' >/dev/null 2>&1 || fail "agentlightning does not import in $VENV"
echo "python-env: ready at $VENV"
