#!/usr/bin/env bash
# Installs the pinned Python packages (scripts/python-requirements.txt) into the project's virtual
# environment, .venv, from a wheel cache: wheels are downloaded (hash-checked) only when the cache
# lacks them, and installed from the cache with no index, so a second clone on the same machine
# downloads nothing. Idempotent: a .venv that already holds the pinned versions is left alone.
#
# Environment: RLC_WHEELHOUSE (default ~/.cache/rlc/wheels) is the wheel cache.
set -euo pipefail
cd "$(dirname "$0")/.."
requirements=scripts/python-requirements.txt
wheelhouse=${RLC_WHEELHOUSE:-${XDG_CACHE_HOME:-$HOME/.cache}/rlc/wheels}
python=/usr/bin/python3  # Debian's: the wheels are pinned for its CPython 3.11
stamp=.venv/rlc-requirements.sha256
want=$(sha256sum "$requirements" | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "install-python: .venv holds the pinned packages"
  exit 0
fi

install_from_cache() {
  .venv/bin/pip install --quiet --disable-pip-version-check --no-index --find-links "$wheelhouse" \
    --no-deps --require-hashes -r "$requirements"
}

mkdir -p "$wheelhouse"
rm -rf .venv
"$python" -m venv .venv
if ! install_from_cache 2>/dev/null; then
  # The cache lacks a pinned wheel: download (hash-checked), then install from the cache.
  "$python" -m pip download --quiet --disable-pip-version-check --only-binary=:all: --no-deps \
    --require-hashes -r "$requirements" -d "$wheelhouse"
  install_from_cache
fi
echo "$want" > "$stamp"
echo "install-python: installed $(grep -c '==' "$requirements") pinned packages into .venv"
