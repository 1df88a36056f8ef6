#!/usr/bin/env bash
# Speed of the CSV engine, natively and in wasm (Node), pass 1 and pass 2 separately, on the
# 100 MB numeric table of bench/csv_memory and on a mixed table (text columns, NA cells).
# Rounds alternate native and wasm so both see the same machine load. Writes
# bench/results/csv_parse.jsonl (every repetition) and bench/results/csv_parse.md (medians).
# Usage: bash bench/csv_parse/run.sh [rounds=3] [mb=100]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
mb=${2:-100}
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten (TOOLCHAIN.md)
out=build-csv-parse
mkdir -p "$out/include"
echo '{"type":"commonjs"}' >"$out/package.json"   # the repo is "type": "module"
# fast_float through a directory that holds only it: -I/usr/include would shadow the wasm libc.
[ -e "$out/include/fast_float" ] || ln -s /usr/include/fast_float "$out/include/fast_float"
sources="bench/csv_parse/csv_bench.cpp core/src/data/csv/*.cpp core/src/error.cpp"
g++ -std=c++17 -O3 -DNDEBUG -Icore/include -Icore/src -I"$out/include" $sources -o "$out/csv_bench"
# The flags of the package's module: -O3, SIMD128, exceptions on (TOOLCHAIN.md).
em++ -std=c++17 -O3 -DNDEBUG -msimd128 -fexceptions -Icore/include -Icore/src -I"$out/include" \
  $sources -sENVIRONMENT=node -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB \
  -sMAXIMUM_MEMORY=4GB -o "$out/csv_bench.js"

results=bench/results/csv_parse.jsonl
: >"$results"
for ((r = 0; r < rounds; ++r)); do
  for table in numeric mixed; do
    echo "round $((r + 1))/$rounds $table" >&2
    nice -n 19 "$out/csv_bench" "mb=$mb" "table=$table" reps=3 >>"$results"
    nice -n 19 node "$out/csv_bench.js" "mb=$mb" "table=$table" reps=3 >>"$results"
  done
done
load=$(cut -d' ' -f1-3 /proc/loadavg)
/usr/bin/python3 - "$results" "$load" <<'PY' | tee bench/results/csv_parse.md
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"CSV engine, MB/s (10^6 bytes/s), median of {len(rows) // 4} repetitions per cell; "
      f"load average {sys.argv[2]} on 2 CPUs. Wall time, and in brackets per CPU second "
      f"(the process's CPU time: the machine is shared).\n")
print("| table | where | pass 1 (scan) | pass 2 (fill) |")
print("|---|---|---|---|")
for table in ("numeric", "mixed"):
    for where in ("native", "wasm"):
        sel = [r for r in rows if r["table"] == table and r["where"] == where]
        m = lambda k: statistics.median(r[k] for r in sel)
        cpu = lambda k: f" ({m(k):.0f})"
        size = f"{sel[0]['bytes'] / 1e6:.0f} MB, {sel[0]['rows']} rows × {sel[0]['columns'] + 1} columns"
        print(f"| {table} ({size}) | {where} | {m('pass1_MBps'):.0f}{cpu('pass1_cpu_MBps')} | "
              f"{m('pass2_MBps'):.0f}{cpu('pass2_cpu_MBps')} |")
PY
