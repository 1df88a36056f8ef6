#!/usr/bin/env bash
# The README's second command (npm test) and what .ci/run calls: install what is missing,
# build everything, then run every fast test tier — native GoogleTest (ctest), Jest on the
# wasm package in Node, and the end-to-end tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
bash scripts/setup.sh
bash scripts/build.sh native wasm ts web

summary=()
log_dir=$(mktemp -d)

echo "== GoogleTest (native, ctest)"
(cd build && ctest --output-on-failure -j"$(nproc 2>/dev/null || echo 2)") | tee "$log_dir/ctest.txt"
gtest_line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log_dir/ctest.txt" | tail -1)
gtest_total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<<"$gtest_line")
gtest_failed=$(sed -E 's/.*passed, ([0-9]+) tests failed.*/\1/' <<<"$gtest_line")
summary+=("GoogleTest: $((gtest_total - gtest_failed)) passed, $gtest_failed failed")

echo "== Jest (wasm package in Node)"
node --experimental-vm-modules node_modules/jest/bin/jest.js --ci 2>&1 | tee "$log_dir/jest.txt"
jest_line=$(grep -E '^Tests:' "$log_dir/jest.txt" | tail -1)
jest_passed=$(grep -oE '[0-9]+ passed' <<<"$jest_line" | grep -oE '[0-9]+' || echo 0)
jest_failed=$(grep -oE '[0-9]+ failed' <<<"$jest_line" | grep -oE '[0-9]+' || echo 0)
summary+=("Jest: $jest_passed passed, $jest_failed failed")

echo "== End-to-end (headless Chromium)"
node --test --test-reporter=spec tests/e2e/ 2>&1 | tee "$log_dir/e2e.txt"
e2e_passed=$(grep -E '^ℹ pass ' "$log_dir/e2e.txt" | grep -oE '[0-9]+' | tail -1)
e2e_failed=$(grep -E '^ℹ fail ' "$log_dir/e2e.txt" | grep -oE '[0-9]+' | tail -1)
summary+=("E2E: ${e2e_passed:-0} passed, ${e2e_failed:-0} failed")

echo
echo "== Summary ($(( $(date +%s) - started )) s)"
printf '  %s\n' "${summary[@]}"
total_passed=$(( gtest_total - gtest_failed + jest_passed + ${e2e_passed:-0} ))
total_failed=$(( gtest_failed + jest_failed + ${e2e_failed:-0} ))
echo "all: $total_passed passed, $total_failed failed"
rm -rf "$log_dir"
[ "$total_failed" -eq 0 ]
