// A string → code table (codes 0, 1, … in order of insertion) with its keys in one arena:
// no allocation per cell and no std::string per lookup, which C++17's unordered_map would
// need (heterogeneous lookup is C++20). Open addressing, linear probing, load ≤ 1/2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "data/csv/text.hpp"

namespace dpmargin::data::csv {

class StringTable {
 public:
  std::size_t size() const { return hashes_.size(); }
  std::size_t bytes() const { return arena_.size(); }

  // Code of the key, or -1.
  std::int64_t find(const char* key, std::size_t n, std::uint64_t hash) const {
    if (slots_.empty()) return -1;
    const std::uint32_t tag = static_cast<std::uint32_t>(hash);
    for (std::size_t i = static_cast<std::size_t>(hash >> 32) & mask_;; i = (i + 1) & mask_) {
      const std::uint32_t slot = slots_[i];
      if (slot == 0) return -1;
      const std::uint32_t code = slot - 1;
      if (hashes_[code] == tag && offsets_[code + 1] - offsets_[code] == n &&
          (n == 0 || std::memcmp(arena_.data() + offsets_[code], key, n) == 0)) {
        return code;
      }
    }
  }

  // Inserts a key known to be absent; returns its code.
  std::uint32_t insert(const char* key, std::size_t n, std::uint64_t hash) {
    if (2 * (size() + 1) > slots_.size()) grow();
    const std::uint32_t code = static_cast<std::uint32_t>(size());
    arena_.append(key, n);
    offsets_.push_back(arena_.size());
    hashes_.push_back(static_cast<std::uint32_t>(hash));
    place(code, hash);
    return code;
  }

  std::string key(std::size_t code) const {
    return arena_.substr(offsets_[code], offsets_[code + 1] - offsets_[code]);
  }

 private:
  void place(std::uint32_t code, std::uint64_t hash) {
    std::size_t i = static_cast<std::size_t>(hash >> 32) & mask_;
    while (slots_[i] != 0) i = (i + 1) & mask_;
    slots_[i] = code + 1;
  }

  void grow() {
    const std::size_t capacity = slots_.empty() ? 16 : 2 * slots_.size();
    slots_.assign(capacity, 0);
    mask_ = capacity - 1;
    for (std::uint32_t code = 0; code < size(); ++code) {
      const std::size_t n = offsets_[code + 1] - offsets_[code];
      place(code, hashBytes(arena_.data() + offsets_[code], n));
    }
  }

  std::string arena_;
  std::vector<std::size_t> offsets_ = {0};
  std::vector<std::uint32_t> hashes_;  // low 32 bits of each key's hash, to skip memcmp
  std::vector<std::uint32_t> slots_;   // code + 1, 0 = empty
  std::size_t mask_ = 0;
};

}  // namespace dpmargin::data::csv
