#!/usr/bin/env bash
# Installs, idempotently, what dpmargin's build and tests need and are missing on a fresh
# Debian 12 machine: apt packages (only the missing ones) and node_modules (npm ci, only when
# package-lock.json changed). Safe to run any number of times.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang + libclang-rt-14-dev: the sanitizer/fuzzing build (build-asan/, libFuzzer, ASan, UBSan).
APT_PACKAGES=(cmake g++ make libeigen3-dev emscripten googletest libgtest-dev
              nlohmann-json3-dev libfast-float-dev chromium clang libclang-rt-14-dev nodejs npm)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    case "$pkg" in
      # A newer Node/npm outside apt (e.g. /usr/bin/node from NodeSource) is fine as is.
      nodejs) command -v node >/dev/null 2>&1 && continue ;;
      npm) command -v npm >/dev/null 2>&1 && continue ;;
    esac
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing apt packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node >= 20 is required (found $(node --version))." >&2
  exit 1
fi

# Install node_modules only when the lock file differs from the one they were installed from.
# `npm ci` first; npm 11 writes lock files without the other platforms' optional packages
# (e.g. jest's @unrs/resolver-binding-*) and then `npm ci` refuses them as "out of sync", so
# fall back to `npm install`, which installs the exact locked versions and leaves the lock alone.
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.dpmargin-lock-hash ] || [ "$(cat node_modules/.dpmargin-lock-hash)" != "$lock_hash" ]; then
  echo "setup: installing node_modules from package-lock.json"
  if ! npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1; then
    npm install --no-audit --no-fund --loglevel=error
  fi
  echo "$lock_hash" > node_modules/.dpmargin-lock-hash
fi
