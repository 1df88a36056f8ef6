#!/usr/bin/env bash
# Gradient-kernel micro-benchmark of the product's kernel (learn::kernels::hingeGradients),
# natively and in wasm (Node), against the machine's limits (peak.cpp), in interleaved rounds
# (native, wasm, native, …) so both see the same machine load. Writes OUT/kernels.json and
# OUT/kernels.md (OUT: bench/results). The kernels it once was compared with are in git history
# and docs/KERNELS.md.
# Usage: bash bench/kernels/run.sh [rounds=3] [reps=5] [OUT=bench/results] [kernel_bench args…]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
reps=${2:-5}
results=${3:-bench/results}
shift $(($# < 3 ? $# : 3))
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten (TOOLCHAIN.md)

cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DDPMARGIN_BUILD_BENCH=ON \
  -DDPMARGIN_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j2 --target kernel_bench peak >/dev/null

# The wasm build uses the flags of the package's module (CMakeLists.txt, wasm/CMakeLists.txt):
# -O3, Eigen's SSE path on SIMD128 with the mmintrin shim.
mkdir -p build-kernels-wasm
echo '{"type":"commonjs"}' >build-kernels-wasm/package.json   # the repo is "type": "module"
em++ -std=c++17 -O3 -DNDEBUG -ffp-contract=off -DEIGEN_MPL2_ONLY -msimd128 -msse4.2 -fgnuc-version=5.13 \
  -isystem wasm/shim -isystem /usr/include/eigen3 -Icore/include \
  bench/kernels/kernel_bench.cpp core/src/learn/kernels.cpp \
  core/src/learn/noisy_gd.cpp core/src/error.cpp core/src/random/{chacha20,gaussian,generator,uniform,gamma_poisson}.cpp \
  -Icore/src \
  -sENVIRONMENT=node -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -o build-kernels-wasm/kernel_bench.js
em++ -std=c++17 -O3 -msimd128 -ffp-contract=off bench/kernels/peak.cpp \
  -sENVIRONMENT=node -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -o build-kernels-wasm/peak.js

out=$(mktemp)
for ((r = 0; r < rounds; ++r)); do
  echo "round $((r + 1))/$rounds" >&2
  build-bench/bench/kernel_bench "reps=$reps" "$@" >>"$out"
  node build-kernels-wasm/kernel_bench.js "reps=$reps" "$@" >>"$out"
  build-bench/bench/peak "reps=$reps" >>"$out"
  node build-kernels-wasm/peak.js "reps=$reps" >>"$out"
done
mkdir -p "$results"
/usr/bin/python3 bench/kernels/report.py "$out" "$results/kernels.json" "$results/kernels.md" \
  "bash bench/kernels/run.sh $rounds $reps $results${*:+ $*}"
rm -f "$out"
cat "$results/kernels.md"
