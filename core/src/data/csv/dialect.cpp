#include "data/csv/dialect.hpp"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "data/csv/cells.hpp"
#include "data/csv/text.hpp"

namespace dpmargin::data::csv {
namespace {

using u8 = unsigned char;

[[noreturn]] void notCsv(const std::string& message, std::int64_t byte = -1) {
  ErrorLocation location;
  location.byte = byte;
  throw Error(ErrorCode::kCsvParse, "", message, location);
}

bool startsWith(const char* data, std::size_t size, const char* magic, std::size_t n) {
  return size >= n && std::memcmp(data, magic, n) == 0;
}

struct SampleRow {
  std::vector<std::pair<const char*, const char*>> fields;
  bool terminated = false;  // ended by a line break (else by the end of the sample)
};

// Rows of the sample split at `delimiter`, quotes honoured; lenient (no errors), since the
// tokenizer reports malformed input with its line once the dialect is chosen.
std::vector<SampleRow> splitRows(const char* p, const char* end, char delimiter,
                                 std::size_t maxRows) {
  std::vector<SampleRow> rows;
  while (p < end && rows.size() < maxRows) {
    SampleRow row;
    for (;;) {
      const char* b;
      const char* e;
      if (p < end && *p == '"') {
        const char* q = p + 1;
        while (q < end) {
          if (*q == '"') {
            if (q + 1 < end && q[1] == '"') {
              q += 2;
              continue;
            }
            break;
          }
          ++q;
        }
        b = p + 1;
        e = q;
        p = q < end ? q + 1 : end;
        while (p < end && *p != delimiter && *p != '\n' && *p != '\r') ++p;
      } else {
        b = p;
        while (p < end && *p != delimiter && *p != '\n' && *p != '\r') ++p;
        e = p;
      }
      row.fields.emplace_back(b, e);
      if (p == end) break;
      if (*p == delimiter) {
        ++p;
        continue;
      }
      row.terminated = true;
      if (*p == '\r' && p + 1 < end && p[1] == '\n') ++p;
      ++p;
      break;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

bool blankRow(const SampleRow& row) {
  for (const auto& field : row.fields) {
    if (!isBlank(field.first, field.second, CsvEncoding::kUtf8)) return false;
  }
  return true;
}

// The rows detection trusts: not blank, and not a last row the sample may have cut short.
std::vector<SampleRow> detectionRows(const char* data, std::size_t size, bool final,
                                     char delimiter) {
  std::vector<SampleRow> all = splitRows(data, data + size, delimiter, kDetectRows);
  std::vector<SampleRow> rows;
  for (SampleRow& row : all) {
    if (!blankRow(row)) rows.push_back(std::move(row));
  }
  if (!final && rows.size() > 1 && !rows.back().terminated) rows.pop_back();
  return rows;
}

CsvNewline detectNewline(const char* data, std::size_t size, bool final,
                         const std::string& delimiters) {
  bool inQuotes = false;
  bool fieldStart = true;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = data[i];
    if (inQuotes) {
      if (c == '"') {
        if (i + 1 < size && data[i + 1] == '"') {
          ++i;
        } else {
          inQuotes = false;
        }
      }
      continue;
    }
    if (c == '"' && fieldStart) {
      inQuotes = true;
      continue;
    }
    if (c == '\n') return CsvNewline::kLf;
    if (c == '\r') {
      if (i + 1 < size) return data[i + 1] == '\n' ? CsvNewline::kCrLf : CsvNewline::kCr;
      return final ? CsvNewline::kCr : CsvNewline::kCrLf;
    }
    fieldStart = delimiters.find(c) != std::string::npos;
  }
  return CsvNewline::kLf;
}

// The delimiter that splits the header line — the first row that is not blank — into the most
// fields (ties to the earlier candidate; ',' for a one-column header). The header is public;
// data rows are not read, so one row can never change how every row is split (docs/reference/PRIVACY_SCHEMA.md,
// "The schema").
char detectDelimiter(const char* data, std::size_t size, bool final,
                     const std::string& candidates) {
  char best = candidates.empty() ? ',' : candidates[0];
  std::size_t bestWidth = 1;
  for (const char delimiter : candidates) {
    const std::vector<SampleRow> rows = detectionRows(data, size, final, delimiter);
    if (rows.empty()) continue;
    if (rows[0].fields.size() > bestWidth) {
      best = delimiter;
      bestWidth = rows[0].fields.size();
    }
  }
  return bestWidth > 1 ? best : ',';
}

}  // namespace

std::size_t sniff(const char* data, std::size_t size) {
  const u8* b = reinterpret_cast<const u8*>(data);
  if (size >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) {
    notCsv("the file is UTF-16 text (it starts with a UTF-16 byte order mark); save it as UTF-8");
  }
  if (startsWith(data, size, "PK\x03\x04", 4) || startsWith(data, size, "PK\x05\x06", 4)) {
    notCsv("this is an Excel workbook (.xlsx, a zip archive), not CSV: save it as "
           "'CSV UTF-8 (comma delimited)' in Excel, or export the sheet as CSV");
  }
  if (startsWith(data, size, "\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", 8)) {
    notCsv("this is a legacy Excel workbook (.xls), not CSV: save it as "
           "'CSV UTF-8 (comma delimited)' in Excel, or export the sheet as CSV");
  }
  if (startsWith(data, size, "\x1F\x8B", 2)) {
    notCsv("the file is gzip-compressed, not CSV text: decompress it first");
  }
  const std::size_t bom = startsWith(data, size, "\xEF\xBB\xBF", 3) ? 3 : 0;
  const void* nul = std::memchr(data + bom, 0, size - bom);
  if (nul != nullptr) {
    // Text in UTF-16 without a byte order mark: ASCII characters with a NUL in every other
    // byte (odd positions little-endian, even ones big-endian).
    const std::size_t n = std::min<std::size_t>(size - bom, 4096) & ~std::size_t{1};
    std::size_t even = 0, odd = 0;
    for (std::size_t i = 0; i < n; ++i) ((i & 1) ? odd : even) += b[bom + i] == 0;
    const std::size_t pairs = n / 2;
    if (pairs > 0 && ((4 * odd >= pairs && 8 * even <= odd) ||
                      (4 * even >= pairs && 8 * odd <= even))) {
      notCsv(std::string("the file looks like UTF-16 text without a byte order mark (") +
                 (odd > even ? "little" : "big") +
                 "-endian: every other byte is NUL); save it as UTF-8",
             static_cast<std::int64_t>(static_cast<const char*>(nul) - data));
    }
    const std::int64_t at = static_cast<const char*>(nul) - data;
    notCsv("the file is not text: it has a NUL byte at byte " + std::to_string(at) +
               " (a binary file, or a spreadsheet); save or export the table as CSV UTF-8",
           at);
  }
  return bom;
}

CsvDialect detectDialect(const char* data, std::size_t size, bool final,
                         const CsvOptions& options) {
  CsvDialect dialect;
  std::string delimiters = options.delimiterCandidates;
  if (options.delimiter != 0 && delimiters.find(options.delimiter) == std::string::npos) {
    delimiters.push_back(options.delimiter);
  }
  dialect.newline = detectNewline(data, size, final, delimiters);
  dialect.delimiter = options.delimiter != 0
                          ? options.delimiter
                          : detectDelimiter(data, size, final, options.delimiterCandidates);
  // The decimal mark: declared, or by the default rule — '.' where ',' delimits, else either
  // mark per cell. A function of the header line's delimiter, never of the rows.
  dialect.decimal = options.decimal != 0 ? options.decimal
                    : dialect.delimiter == ',' ? '.'
                                              : kEitherDecimal;
  dialect.encoding = options.encoding;
  return dialect;
}

}  // namespace dpmargin::data::csv
