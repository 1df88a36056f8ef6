"""Aggregates bench/kernels/run.sh output (JSON lines, several interleaved rounds) into
bench/results/kernels.json and kernels.md: per shape, m, platform and kernel the median over
rounds of the per-round median and minimum time per call, in ns per row·column·candidate."""
import json
import statistics
import sys
from collections import defaultdict

src, out_json, out_md = sys.argv[1:4]
runs = defaultdict(list)
diffs = {}
for line in open(src):
    line = line.strip()
    if not line.startswith("{"):
        continue
    d = json.loads(line)
    key = (d["n"], d["k"], d["m"], d["platform"], d["kernel"])
    runs[key].append(d)
    diffs[(d["n"], d["k"], d["m"], d["platform"])] = d["relDiffOldNew"]

rows = []
shapes = sorted({(n, k, m) for (n, k, m, _, _) in runs}, key=lambda t: (-t[0] * t[1], t[2]))
for n, k, m in shapes:
    row = {"n": n, "k": k, "m": m}
    for plat in ("native", "wasm"):
        for ker in ("old", "new"):
            rs = runs.get((n, k, m, plat, ker), [])
            if not rs:
                continue
            row[f"{plat}_{ker}"] = {
                "nsPerUnit": statistics.median(r["nsPerUnit"] for r in rs),
                "minNsPerUnit": statistics.median(r["minNsPerUnit"] for r in rs),
                "secondsPerCall": statistics.median(r["seconds"] for r in rs),
                "rounds": len(rs),
            }
        row[f"{plat}_relDiffOldNew"] = diffs.get((n, k, m, plat))
    def ratio(a, b, field="nsPerUnit"):
        return row[a][field] / row[b][field] if a in row and b in row else None
    row["speedupNative"] = ratio("native_old", "native_new")
    row["speedupWasm"] = ratio("wasm_old", "wasm_new")
    row["wasmOverNativeOld"] = ratio("wasm_old", "native_old")
    row["wasmOverNativeNew"] = ratio("wasm_new", "native_new")
    row["wasmOverNativeNewMin"] = ratio("wasm_new", "native_new", "minNsPerUnit")
    rows.append(row)

json.dump({"unit": "ns per row x column x candidate (median over rounds of the per-call median)",
           "rows": rows}, open(out_json, "w"), indent=1)

def f(x, p=3):
    return "–" if x is None else f"{x:.{p}f}"

with open(out_md, "w") as o:
    o.write("# Gradient kernel micro-benchmark\n\n")
    o.write("`bash bench/kernels/run.sh` — ns per row·column·candidate (median over interleaved "
            "rounds of the median call; in brackets the median over rounds of the fastest call). "
            "Synthetic rows clipped to norm 1, candidate activity spread 30–90% (60% for m = 1). "
            "old = Eigen GEMM kernels before kernels.cpp, new = kernels.cpp. wasm = the same C++ "
            "with em++ -O3 -msimd128, run by Node.\n\n")
    o.write("| n × k | m | native old | native new | wasm old | wasm new | speed-up native | "
            "speed-up wasm | wasm/native old | wasm/native new [min] |\n")
    o.write("|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        g = lambda key: r.get(key, {}) or {}
        cell = lambda key: f"{f(g(key).get('nsPerUnit'))} [{f(g(key).get('minNsPerUnit'))}]" if key in r else "–"
        o.write(f"| {r['n']} × {r['k']} | {r['m']} | {cell('native_old')} | {cell('native_new')} | "
                f"{cell('wasm_old')} | {cell('wasm_new')} | {f(r['speedupNative'], 2)} | "
                f"{f(r['speedupWasm'], 2)} | {f(r['wasmOverNativeOld'], 2)} | "
                f"{f(r['wasmOverNativeNew'], 2)} [{f(r['wasmOverNativeNewMin'], 2)}] |\n")
    ratios = [r["wasmOverNativeNew"] for r in rows if r["wasmOverNativeNew"]]
    ratiosOld = [r["wasmOverNativeOld"] for r in rows if r["wasmOverNativeOld"]]
    if ratios:
        o.write(f"\nwasm/native, median over shapes: old {statistics.median(ratiosOld):.2f}, "
                f"new {statistics.median(ratios):.2f}.\n")
    d = [v for v in diffs.values() if v is not None]
    if d:
        o.write(f"Largest relative difference old vs new output: {max(d):.1e}.\n")
