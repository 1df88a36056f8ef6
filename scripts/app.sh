#!/usr/bin/env bash
# The README's first command (npm start): install what is missing, build, and serve the web
# app (production build) on http://127.0.0.1:${PORT:-5173}/ . Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh wasm ts web
echo "dpmargin: serving the app at http://127.0.0.1:${PORT:-5173}/ (Ctrl-C to stop)"
exec node node_modules/vite/bin/vite.js preview --config web/vite.config.ts \
  --host 127.0.0.1 --port "${PORT:-5173}" --strictPort
