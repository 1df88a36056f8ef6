#!/usr/bin/env bash
# The narrow-storage experiments (docs/design/NARROW_STORAGE.md): the product's float32 gradient
# kernel against a uint8 variant of it (bench/kernels/narrow_bench.cpp) and against compressed
# one-hot rows (sparse_bench.cpp), natively and in wasm (Node; once with V8's default tiering and
# once with --no-liftoff, the steady-state code), in interleaved rounds. Appends one JSON object
# per line to OUT (default bench/results/narrow.jsonl) and to bench/results/sparse.jsonl, each
# tagged with the V8 mode and the date.
# Usage: bash bench/kernels/narrow.sh [rounds=3] [reps=9] [OUT]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
reps=${2:-9}
out=${3:-bench/results/narrow.jsonl}
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten (TOOLCHAIN.md)

cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DDPMARGIN_BUILD_BENCH=ON \
  -DDPMARGIN_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j2 --target narrow_bench sparse_bench >/dev/null
mkdir -p build-kernels-wasm
echo '{"type":"commonjs"}' >build-kernels-wasm/package.json   # the repo is "type": "module"
em++ -std=c++17 -O3 -DNDEBUG -ffp-contract=off -DEIGEN_MPL2_ONLY -msimd128 -msse4.2 -fgnuc-version=5.13 \
  -isystem wasm/shim -isystem /usr/include/eigen3 -Icore/include -Icore/src \
  bench/kernels/narrow_bench.cpp core/src/learn/kernels.cpp core/src/learn/noisy_gd.cpp core/src/error.cpp \
  core/src/random/{chacha20,gaussian,generator,uniform,gamma_poisson}.cpp \
  -sENVIRONMENT=node -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB \
  -o build-kernels-wasm/narrow_bench.js
em++ -std=c++17 -O3 -DNDEBUG -ffp-contract=off -msimd128 -isystem /usr/include/eigen3 -Icore/include -Icore/src \
  bench/kernels/sparse_bench.cpp core/src/learn/kernels.cpp core/src/error.cpp \
  -sENVIRONMENT=node -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB \
  -o build-kernels-wasm/sparse_bench.js

date=$(date -u +%Y-%m-%dT%H:%MZ)
tag() { sed "s/^{/{\"v8\":\"$1\",\"date\":\"$date\",/"; }
mkdir -p "$(dirname "$out")"
for ((r = 0; r < rounds; ++r)); do
  echo "round $((r + 1))/$rounds" >&2
  build-bench/bench/narrow_bench "reps=$reps" | tag none >>"$out"
  node build-kernels-wasm/narrow_bench.js "reps=$reps" | tag default >>"$out"
  node --no-liftoff build-kernels-wasm/narrow_bench.js "reps=$reps" | tag no-liftoff >>"$out"
  build-bench/bench/sparse_bench "reps=$reps" | tag none >>bench/results/sparse.jsonl
  node --no-liftoff build-kernels-wasm/sparse_bench.js "reps=$reps" | tag no-liftoff >>bench/results/sparse.jsonl
done
/usr/bin/python3 - "$out" <<'PY'
import json, sys, statistics, collections
rows = [json.loads(l) for l in open(sys.argv[1])]
last = max(r["date"] for r in rows)
t = collections.defaultdict(list)
for r in rows:
    if r["date"] == last:
        t[(r["platform"], r["v8"], r["n"], r["k"], r["m"], r["storage"])].append(r["median_s"])
print("| platform | V8 | n × k | m | float32 ms | uint8 ms | uint8 / float32 |")
print("|---|---|---|---|---|---|---|")
for (p, v, n, k, m, s), ts in sorted(t.items()):
    if s != "float32":
        continue
    f = statistics.median(ts)
    u = statistics.median(t[(p, v, n, k, m, "uint8")])
    print(f"| {p} | {v} | {n} × {k} | {m} | {f*1e3:.2f} | {u*1e3:.2f} | {u/f:.2f} |")
PY
