#!/usr/bin/env bash
# Checks that on a Node.js older than 22.13 every Arclight package fails on import with one clear error
# (ERR_ARCLIGHT_UNSUPPORTED_NODE, naming the requirement) — not with ERR_UNKNOWN_BUILTIN_MODULE or another
# unrelated error — and that the `arclight` command says the same. Uses the first `node` on PATH outside
# node_modules/.bin that is older than 22.13 (these machines ship Node 20), or $OLD_NODE. Needs built packages.
set -euo pipefail
cd "$(dirname "$0")/.."

old_node="${OLD_NODE:-}"
if [[ -z "$old_node" ]]; then
  while IFS= read -r candidate; do
    [[ "$candidate" == */node_modules/.bin/node ]] && continue
    if ! "$candidate" -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=13)?0:1)'; then
      old_node="$candidate"
      break
    fi
  done < <(which -a node 2>/dev/null | awk '!seen[$0]++')
fi
if [[ -z "$old_node" ]]; then
  echo "check-unsupported-node: no Node.js older than 22.13 on PATH; set OLD_NODE=/path/to/node (e.g. Node 20)" >&2
  exit 2
fi
echo "check-unsupported-node: $old_node ($("$old_node" --version))"

failures=0
for dir in packages/*/; do
  pkg="$dir/package.json"
  [[ -f "$pkg" ]] || continue
  name=$("$old_node" -p "const p=require('./$pkg'); p.private ? '' : p.name")
  [[ -n "$name" ]] || continue
  if [[ ! -d "$dir/dist" ]]; then
    echo "  $name: not built (run npm run build first)"; failures=$((failures + 1)); continue
  fi
  out=$("$old_node" --input-type=module -e "await import('$name')" 2>&1) && status=0 || status=$?
  if [[ $status -ne 0 && "$out" == *ERR_ARCLIGHT_UNSUPPORTED_NODE* && "$out" == *"Node.js >= 22.13"* ]]; then
    echo "  ok   import '$name': ERR_ARCLIGHT_UNSUPPORTED_NODE"
  else
    echo "  FAIL import '$name' (exit $status):"; echo "$out" | head -15 | sed 's/^/       /'
    failures=$((failures + 1))
  fi
done

out=$("$old_node" packages/cli/bin/arclight.js --help 2>&1) && status=0 || status=$?
if [[ $status -ne 0 && "$out" == *"Node.js >= 22.13"* && "$out" != *"    at "* ]]; then
  echo "  ok   arclight --help: $(echo "$out" | head -1 | cut -c1-100)…"
else
  echo "  FAIL arclight --help (exit $status):"; echo "$out" | head -15 | sed 's/^/       /'
  failures=$((failures + 1))
fi

if [[ $failures -ne 0 ]]; then
  echo "check-unsupported-node: $failures failure(s)" >&2
  exit 1
fi
echo "check-unsupported-node: every package refuses Node $("$old_node" --version) with ERR_ARCLIGHT_UNSUPPORTED_NODE"
