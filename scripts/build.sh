#!/usr/bin/env bash
# Builds everything from source (incrementally): the native core + GoogleTest suite (build/),
# the WebAssembly module (build-wasm/ → dist/wasm/), the TypeScript package layer (dist/) and
# the web app (web/dist/). Usage: scripts/build.sh [native] [wasm] [ts] [web]  (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
((${#targets[@]})) || targets=(native wasm ts web)
jobs=$(nproc 2>/dev/null || echo 2)

for t in "${targets[@]}"; do
  case "$t" in
    native)
      cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
      cmake --build build -j"$jobs"
      ;;
    wasm)
      # Debian's emscripten finds acorn & co. under /usr/share/nodejs (TOOLCHAIN.md).
      export NODE_PATH=/usr/share/nodejs
      if [ ! -f build-wasm/CMakeCache.txt ]; then
        emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release \
          -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
      fi
      cmake --build build-wasm -j"$jobs"
      ;;
    ts)
      node node_modules/typescript/bin/tsc -p wasm/tsconfig.json
      chmod +x dist/cli.js
      ;;
    web)
      node node_modules/typescript/bin/tsc -p web/tsconfig.json   # typecheck the app (Vite does not)
      node node_modules/vite/bin/vite.js build --config web/vite.config.ts --logLevel warn
      ;;
    *) echo "build.sh: unknown target $t" >&2; exit 2 ;;
  esac
done
