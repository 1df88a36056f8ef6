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

  // Code of the key, or -1. One slot holds the key's length, hash tag, code and first 8 bytes,
  // so a lookup of a short key (≤ 8 bytes: numbers, codes, short words) reads one slot and
  // nothing else — on a wide table every column's table is cold for every cell, and scattered
  // reads per cell held the scan pass back (docs/reference/PERFORMANCE.md, "The scan pass").
  std::int64_t find(const char* key, std::size_t n, std::uint64_t hash) const {
    if (slots_.empty()) return -1;
    const std::uint32_t tag = static_cast<std::uint32_t>(hash);
    const std::uint64_t head = headOf(key, n);
    for (std::size_t i = static_cast<std::size_t>(hash >> 32) & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.code1 == 0) return -1;
      if (slot.tag == tag && slot.len == lenOf(n) && slot.head == head &&
          (n <= 8 || (offsets_[slot.code1] - offsets_[slot.code1 - 1] == n &&
                      std::memcmp(arena_.data() + offsets_[slot.code1 - 1] + 8, key + 8, n - 8) == 0))) {
        return slot.code1 - 1;
      }
    }
  }

  // Adds one to the key's count (the number of bump() and insert() calls for it) if it is
  // present, in the slot already read: one memory access per known key. False if absent.
  bool bump(const char* key, std::size_t n, std::uint64_t hash) { return bumpCode(key, n, hash) >= 0; }
  // The same, returning the key's code (−1: absent, nothing counted).
  std::int64_t bumpCode(const char* key, std::size_t n, std::uint64_t hash) {
    const std::int64_t code = find(key, n, hash);
    if (code < 0) return -1;
    ++slots_[slotOf_[static_cast<std::size_t>(code)]].count;
    return code;
  }

  std::uint64_t count(std::size_t code) const { return slots_[slotOf_[code]].count; }

  // Inserts a key known to be absent (its count 1); returns its code.
  std::uint32_t insert(const char* key, std::size_t n, std::uint64_t hash) {
    if (2 * (size() + 1) > slots_.size()) grow();
    const std::uint32_t code = static_cast<std::uint32_t>(size());
    arena_.append(key, n);
    offsets_.push_back(arena_.size());
    hashes_.push_back(hash);
    slotOf_.push_back(0);
    place(code, hash, headOf(key, n), n, 1);
    return code;
  }

  std::string key(std::size_t code) const {
    return arena_.substr(offsets_[code], offsets_[code + 1] - offsets_[code]);
  }

 private:
  struct Slot {
    std::uint64_t head = 0;  // the key's first 8 bytes, zero-padded
    std::uint32_t tag = 0;   // low 32 bits of its hash
    std::uint32_t code1 = 0; // code + 1, 0 = empty
    std::uint32_t len = 0;   // the key's length, capped at 2^32 − 1 (longer keys: the arena's)
    std::uint32_t spare = 0;
    std::uint64_t count = 0;
  };

  static std::uint32_t lenOf(std::size_t n) {
    return n < 0xFFFFFFFFu ? static_cast<std::uint32_t>(n) : 0xFFFFFFFFu;
  }

  static std::uint64_t headOf(const char* key, std::size_t n) {
    if (n < 8) return loadPartial(key, n);
    std::uint64_t head;
    std::memcpy(&head, key, 8);
    return head;
  }

  void place(std::uint32_t code, std::uint64_t hash, std::uint64_t head, std::size_t n, std::uint64_t count) {
    std::size_t i = static_cast<std::size_t>(hash >> 32) & mask_;
    while (slots_[i].code1 != 0) i = (i + 1) & mask_;
    slots_[i] = {head, static_cast<std::uint32_t>(hash), code + 1, lenOf(n), 0, count};
    slotOf_[code] = static_cast<std::uint32_t>(i);
  }

  void grow() {
    const std::size_t capacity = slots_.empty() ? 16 : 2 * slots_.size();
    std::vector<Slot> old(capacity, Slot{});
    old.swap(slots_);
    mask_ = capacity - 1;
    for (std::uint32_t code = 0; code < size(); ++code) {
      const std::size_t n = offsets_[code + 1] - offsets_[code];
      place(code, hashes_[code], headOf(arena_.data() + offsets_[code], n), n, old[slotOf_[code]].count);
    }
  }

  std::string arena_;
  std::vector<std::size_t> offsets_ = {0};
  std::vector<std::uint64_t> hashes_;  // each key's hash (to re-place them when growing)
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> slotOf_;  // each code's slot
  std::size_t mask_ = 0;
};

}  // namespace dpmargin::data::csv
