#include "data/csv/text.hpp"

#include <cstdio>

namespace dpmargin::data::csv {
namespace {

using u8 = unsigned char;

// Length of the JavaScript white-space character starting at p (0 if none); UTF-8.
std::size_t unicodeSpaceAt(const u8* p, const u8* end) {
  const std::size_t n = static_cast<std::size_t>(end - p);
  if (n >= 2 && p[0] == 0xC2 && p[1] == 0xA0) return 2;  // U+00A0
  if (n < 3) return 0;
  if (p[0] == 0xE1 && p[1] == 0x9A && p[2] == 0x80) return 3;  // U+1680
  if (p[0] == 0xE2 && p[1] == 0x80 &&
      (p[2] <= 0x8A || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF)) {
    return p[2] >= 0x80 ? 3 : 0;  // U+2000–200A, U+2028, U+2029, U+202F
  }
  if (p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0x9F) return 3;  // U+205F
  if (p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80) return 3;  // U+3000
  if (p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) return 3;  // U+FEFF
  return 0;
}

// Same, for the character ending at `end` (begin bounds the look-back).
std::size_t unicodeSpaceBefore(const u8* begin, const u8* end) {
  const std::size_t n = static_cast<std::size_t>(end - begin);
  if (n >= 3 && unicodeSpaceAt(end - 3, end) == 3) return 3;
  if (n >= 2 && unicodeSpaceAt(end - 2, end) == 2) return 2;
  return 0;
}

}  // namespace

void trim(const char*& begin, const char*& end, CsvEncoding encoding) {
  const u8* b = reinterpret_cast<const u8*>(begin);
  const u8* e = reinterpret_cast<const u8*>(end);
  if (encoding == CsvEncoding::kLatin1) {
    while (b < e && (isAsciiSpace(*b) || *b == 0xA0)) ++b;
    while (e > b && (isAsciiSpace(e[-1]) || e[-1] == 0xA0)) --e;
  } else {
    for (;;) {
      if (b < e && isAsciiSpace(*b)) {
        ++b;
      } else if (b < e && *b >= 0xC2) {
        const std::size_t k = unicodeSpaceAt(b, e);
        if (k == 0) break;
        b += k;
      } else {
        break;
      }
    }
    for (;;) {
      if (e > b && isAsciiSpace(e[-1])) {
        --e;
      } else if (e > b && e[-1] >= 0x80) {
        const std::size_t k = unicodeSpaceBefore(b, e);
        if (k == 0) break;
        e -= k;
      } else {
        break;
      }
    }
  }
  begin = reinterpret_cast<const char*>(b);
  end = reinterpret_cast<const char*>(e);
}

Utf8Check checkUtf8(const unsigned char* data, std::size_t size) {
  std::size_t i = 0;
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  while (i < size) {
    // ASCII without NUL, 8 bytes at a time: the whole of a numeric table.
    while (i + 8 <= size) {
      std::uint64_t w;
      std::memcpy(&w, data + i, 8);
      if ((w & kHigh) != 0 || ((w - kOnes) & ~w & kHigh) != 0) break;
      i += 8;
    }
    if (i >= size) break;
    const u8 c = data[i];
    if (c < 0x80) {
      if (c == 0) return {i, Utf8Status::kNul};
      ++i;
      continue;
    }
    std::size_t need;
    u8 lo = 0x80, hi = 0xBF;  // range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      need = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      need = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return {i, Utf8Status::kInvalid};
    }
    for (std::size_t k = 1; k <= need; ++k) {
      if (i + k >= size) return {i, Utf8Status::kIncomplete};
      const u8 t = data[i + k];
      const bool ok = k == 1 ? (t >= lo && t <= hi) : (t >= 0x80 && t <= 0xBF);
      if (!ok) return {i, Utf8Status::kInvalid};
    }
    i += need + 1;
  }
  return {size, Utf8Status::kOk};
}

std::uint32_t windows1252(unsigned char byte) {
  // 0x80–0x9F as the WHATWG Encoding Standard maps them (undefined bytes map to C1 controls).
  static const std::uint16_t kHigh[32] = {
      0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
      0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
      0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
  if (byte >= 0x80 && byte <= 0x9F) return kHigh[byte - 0x80];
  return byte;
}

void appendCodePoint(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

void appendUtf8(std::string& out, const char* begin, const char* end, CsvEncoding encoding) {
  if (encoding == CsvEncoding::kUtf8) {
    out.append(begin, end);
    return;
  }
  for (const char* p = begin; p < end; ++p) {
    const u8 c = static_cast<u8>(*p);
    if (c < 0x80) {
      out.push_back(*p);
    } else {
      appendCodePoint(out, windows1252(c));
    }
  }
}

std::string toUtf8(const char* begin, const char* end, CsvEncoding encoding) {
  std::string out;
  appendUtf8(out, begin, end, encoding);
  return out;
}

std::string quote(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    const u8 c = static_cast<u8>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
          out += buffer;
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
  return out;
}

std::string truncateChars(const std::string& text, std::size_t maxChars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<u8>(text[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (chars == maxChars) return text.substr(0, i) + "\u2026";
    ++chars;
  }
  return text;
}

std::string truncateBytes(std::string text, std::size_t maxBytes) {
  if (text.size() <= maxBytes) return text;
  std::size_t cut = maxBytes;
  while (cut > 0 && (static_cast<u8>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text;
}

}  // namespace dpmargin::data::csv
