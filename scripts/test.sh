#!/usr/bin/env bash
# The README's second command (npm test) and what .ci/run calls: install what is missing,
# build everything, then run every fast test tier — native GoogleTest (ctest), the same suite
# under AddressSanitizer + UBSan, a short libFuzzer run of each harness, Jest on the wasm
# package in Node, the end-to-end tests in headless Chromium, and the installed artifact
# (npm pack → install → Node, bin, tsc, Vite app in Chromium). docs/reference/HARDENING.md describes
# the tiers and their timings. A failing tier does not stop the others; the summary counts it.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
bash scripts/setup.sh
bash scripts/build.sh native wasm ts web
jobs=$(nproc 2>/dev/null || echo 2)

summary=()
total_passed=0
total_failed=0
log_dir=$(mktemp -d)
trap 'rm -rf "$log_dir"' EXIT

# bounded LIMIT LOG COMMAND...: runs COMMAND with its output streamed and kept in LOG, and stops
# it (with every process it started, by process group) after LIMIT seconds. A hang fails its
# tier with a message instead of eating CI's 90 minutes; a stray grandchild that still holds the
# output cannot keep the tier open either (the log is a file, followed until COMMAND exits).
bounded() {
  local limit=$1 log=$2
  shift 2
  : >"$log"
  timeout --kill-after=20 "$limit" "$@" >"$log" 2>&1 &
  local pid=$! rc=0
  tail -n +1 -f --pid="$pid" "$log" 2>/dev/null || true
  wait "$pid" || rc=$?
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "TIMED OUT: $* ran longer than $limit s and was stopped" | tee -a "$log"
  fi
  return "$rc"
}

# record NAME PASSED FAILED SECONDS [NOTE]
record() {
  summary+=("$1: $2 passed, $3 failed ($4 s${5:+; $5})")
  total_passed=$((total_passed + $2))
  total_failed=$((total_failed + $3))
}

# ctest_tier NAME BUILD_DIR LOG LIMIT [ctest args...]: passed/failed from ctest's own count; a
# ctest that fails (or is stopped) without printing it counts as one failure.
ctest_tier() {
  local name=$1 dir=$2 log=$3 limit=$4 t0=$SECONDS
  shift 4
  bounded "$limit" "$log" ctest --test-dir "$dir" --output-on-failure -j"$jobs" "$@" || true
  local line total failed
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -1 || true)
  if [ -n "$line" ]; then
    total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$line")
    failed=$(sed -E 's/.*passed, ([0-9]+) tests failed.*/\1/' <<<"$line")
  else
    total=1 failed=1
  fi
  record "$name" $((total - failed)) "$failed" $((SECONDS - t0))
}

# node_test_tier NAME LOG DIR LIMIT: node --test with the spec reporter ("ℹ pass N", "ℹ fail N").
node_test_tier() {
  local name=$1 log=$2 dir=$3 limit=$4 t0=$SECONDS
  # One file at a time: start.e2e.test.js runs `npm start`, which rebuilds the web app the
  # other files serve.
  bounded "$limit" "$log" node --test --test-concurrency=1 --test-reporter=spec "$dir" || true
  local passed failed
  passed=$(grep -E '^ℹ pass ' "$log" | grep -oE '[0-9]+' | tail -1 || true)
  failed=$(grep -E '^ℹ fail ' "$log" | grep -oE '[0-9]+' | tail -1 || true)
  if [ -z "$passed" ] && [ -z "$failed" ]; then failed=1; fi
  record "$name" "${passed:-0}" "${failed:-0}" $((SECONDS - t0))
}

echo "== GoogleTest (native, ctest)"
ctest_tier "GoogleTest" build "$log_dir/ctest.txt" 600

echo "== GoogleTest under AddressSanitizer + UBSan (build-asan/, clang; privacy audit excluded)"
t0=$SECONDS
# One build directory for the sanitizer tier and the fuzzers: the core is compiled once with
# -fsanitize=address,undefined (+ fuzzer-no-link coverage), -O1 -g, assertions on.
if [ ! -f build-asan/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DDPMARGIN_SANITIZE=ON -DDPMARGIN_BUILD_FUZZ=ON \
    -DDPMARGIN_BUILD_AUDIT=OFF >/dev/null
fi
asan_built=1
cmake --build build-asan -j"$jobs" --target dpmargin_tests fuzz_plan fuzz_train fuzz_accounting fuzz_csv \
  >"$log_dir/asan-build.txt" 2>&1 || { asan_built=0; tail -40 "$log_dir/asan-build.txt"; }
asan_build_s=$((SECONDS - t0))
echo "build-asan: built in ${asan_build_s} s"
if [ "$asan_built" -eq 1 ]; then
  export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
  ctest_tier "GoogleTest+ASan/UBSan" build-asan "$log_dir/asan.txt" 900 -LE audit
  unset ASAN_OPTIONS UBSAN_OPTIONS
else
  record "GoogleTest+ASan/UBSan" 0 1 $((SECONDS - t0))
fi

echo "== Fuzzing, short run (libFuzzer; the committed corpus is replayed first)"
t0=$SECONDS
fuzz_passed=0
fuzz_failed=0
fuzz_notes=()
for harness in plan train accounting csv; do
  binary=build-asan/tests/fuzz/fuzz_$harness
  out="$log_dir/fuzz-$harness"
  mkdir -p "$out/new" "$out/artifacts"
  if [ "$asan_built" -eq 1 ] && "$binary" "$out/new" "tests/fuzz/corpus/$harness" \
      -max_total_time="${DPMARGIN_FUZZ_SECONDS:-5}" -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$out/artifacts/" >"$out/log.txt" 2>&1; then
    fuzz_passed=$((fuzz_passed + 1))
    status=ok
  else
    fuzz_failed=$((fuzz_failed + 1))
    status=FAILED
    grep -E 'ERROR|dpmargin fuzz|runtime error|SUMMARY|Test unit written' "$out/log.txt" || true
    mkdir -p test-results/fuzz && cp -r "$out/artifacts/." test-results/fuzz/ 2>/dev/null || true
  fi
  execs=$(grep -oE 'number_of_executed_units: [0-9]+' "$out/log.txt" | grep -oE '[0-9]+' || echo 0)
  corpus=$(find "tests/fuzz/corpus/$harness" -type f | wc -l)
  echo "  fuzz_$harness: $status, $execs executions (corpus of $corpus replayed)"
  fuzz_notes+=("$harness=$execs")
done
record "Fuzz" "$fuzz_passed" "$fuzz_failed" $((SECONDS - t0)) "executions: ${fuzz_notes[*]}"


echo "== Jest (wasm package in Node)"
t0=$SECONDS
bounded 900 "$log_dir/jest.txt" node --experimental-vm-modules node_modules/jest/bin/jest.js --ci || true
jest_line=$(grep -E '^Tests:' "$log_dir/jest.txt" | tail -1 || true)
jest_passed=$(grep -oE '[0-9]+ passed' <<<"$jest_line" | grep -oE '[0-9]+' || echo 0)
jest_failed=$(grep -oE '[0-9]+ failed' <<<"$jest_line" | grep -oE '[0-9]+' || echo 0)
if [ -z "$jest_line" ]; then jest_failed=1; fi
record "Jest" "$jest_passed" "$jest_failed" $((SECONDS - t0))

echo "== End-to-end (headless Chromium)"
node_test_tier "E2E" "$log_dir/e2e.txt" tests/e2e/ 900

echo "== Installed artifact (npm pack → install → Node, bin, tsc, Vite app in Chromium)"
node_test_tier "Pack" "$log_dir/pack.txt" tests/pack/ 600

echo
echo "== Summary ($(( $(date +%s) - started )) s; build-asan ${asan_build_s} s)"
printf '  %s\n' "${summary[@]}"
echo "all: $total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
