// Byte-level text helpers of the CSV engine: JavaScript-compatible trimming, UTF-8 validation,
// Windows-1252 → UTF-8, message quoting, hashing. Internal (core/src only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "dpmargin/data/csv.hpp"

namespace dpmargin::data::csv {

inline bool isAsciiSpace(unsigned char c) { return c == ' ' || (c >= 0x09 && c <= 0x0D); }

// Trims what String.prototype.trim() trims, so that names, labels and numbers compare as
// they did in the TypeScript reader: ASCII white space and, in UTF-8, U+00A0, U+1680,
// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF (in Latin-1: 0xA0).
void trim(const char*& begin, const char*& end, CsvEncoding encoding);

inline bool isBlank(const char* begin, const char* end, CsvEncoding encoding) {
  trim(begin, end, encoding);
  return begin == end;
}

enum class Utf8Status : std::uint8_t { kOk, kIncomplete, kInvalid, kNul };
struct Utf8Check {
  std::size_t valid;  // bytes before the first problem (all of them when kOk)
  Utf8Status status;  // kIncomplete: a sequence is cut by the end of the buffer
};
// Well-formed UTF-8 per Unicode Table 3-7 (no overlongs, surrogates or > U+10FFFF); a NUL
// byte is reported separately (kNul): no text table contains one.
Utf8Check checkUtf8(const unsigned char* data, std::size_t size);

// Text as UTF-8: a copy for UTF-8 input, transcoded from Windows-1252 otherwise.
std::string toUtf8(const char* begin, const char* end, CsvEncoding encoding);
void appendUtf8(std::string& out, const char* begin, const char* end, CsvEncoding encoding);
// The Unicode code point of a Windows-1252 byte.
std::uint32_t windows1252(unsigned char byte);
void appendCodePoint(std::string& out, std::uint32_t cp);

// JSON.stringify of a UTF-8 string, as the TypeScript messages quote values and names.
std::string quote(const std::string& text);
// The first `maxChars` code points, plus "…" when there were more.
std::string truncateChars(const std::string& text, std::size_t maxChars);
// A prefix of at most maxBytes bytes that does not cut a UTF-8 sequence.
std::string truncateBytes(std::string text, std::size_t maxBytes);

// The n < 8 bytes at p as a little-endian integer, zero-padded: the value memcpy(&w, p, n) gives
// on a little-endian machine (x86, wasm), without a variable-length memcpy — that call dominated
// the scan of a table of short cells (docs/PERFORMANCE.md, "The scan pass"). Reads only p[0, n).
inline std::uint64_t loadPartial(const char* p, std::size_t n) {
  const auto byte = [p](std::size_t i) { return std::uint64_t(static_cast<unsigned char>(p[i])); };
  if (n >= 4) {  // two overlapping 4-byte loads; the overlap ORs equal bytes
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    return std::uint64_t(lo) | (std::uint64_t(hi) << (8 * (n - 4)));
  }
  if (n == 0) return 0;
  return byte(0) | (byte(n / 2) << (8 * (n / 2))) | (byte(n - 1) << (8 * (n - 1)));
}

// Hash for the value tables; any fixed function will do (local files, no adversary to slow
// down), this one reads 8 bytes at a time.
inline std::uint64_t hashBytes(const char* data, std::size_t size) {
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ (size * 0xC2B2AE3D27D4EB4Full);
  while (size >= 8) {
    std::uint64_t w;
    std::memcpy(&w, data, 8);
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 29;
    data += 8;
    size -= 8;
  }
  if (size > 0) h = (h ^ loadPartial(data, size)) * 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 32;
  h *= 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

}  // namespace dpmargin::data::csv
