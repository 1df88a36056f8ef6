#!/usr/bin/env bash
# Gradient-kernel micro-benchmark, natively and in wasm (Node), old vs new kernel, interleaved
# rounds (native, wasm, native, …) so both see the same machine load. Writes
# bench/results/kernels.json and bench/results/kernels.md.
# Usage: bash bench/kernels/run.sh [rounds=3] [reps=5]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
reps=${2:-5}
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
  bench/kernels/kernel_bench.cpp bench/kernels/old_kernels.cpp bench/kernels/tiled_kernels.cpp core/src/learn/kernels.cpp \
  core/src/learn/noisy_gd.cpp core/src/error.cpp core/src/random/{chacha20,gaussian,generator,uniform,gamma_poisson}.cpp \
  -Icore/src \
  -sENVIRONMENT=node -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -o build-kernels-wasm/kernel_bench.js
em++ -std=c++17 -O3 -msimd128 -ffp-contract=off bench/kernels/peak.cpp \
  -sENVIRONMENT=node -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -o build-kernels-wasm/peak.js

out=$(mktemp)
for ((r = 0; r < rounds; ++r)); do
  echo "round $((r + 1))/$rounds" >&2
  build-bench/bench/kernel_bench "reps=$reps" >>"$out"
  node build-kernels-wasm/kernel_bench.js "reps=$reps" >>"$out"
  build-bench/bench/peak "reps=$reps" >>"$out"
  node build-kernels-wasm/peak.js "reps=$reps" >>"$out"
done
/usr/bin/python3 bench/kernels/report.py "$out" bench/results/kernels.json bench/results/kernels.md
rm -f "$out"
cat bench/results/kernels.md
