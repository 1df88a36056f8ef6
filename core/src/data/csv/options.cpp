// Options of the CSV engine and the errors of the byte stream.
#include <cstdio>
#include <string>

#include "data/csv/stream.hpp"

namespace dpmargin::data {

std::vector<std::string> defaultMissingTokens() {
  // Exact, case-sensitive spellings: R and pandas write NA/NaN/nan, SQL dumps NULL/null,
  // Excel #N/A, C's printf -nan, UCI datasets "?". "na", "Na" (sodium), "None", "-" and the
  // like stay values: a category may be spelled that way.
  return {"", "NA", "N/A", "n/a", "#N/A", "NaN", "nan", "-nan", "-NaN", "NULL", "null", "?"};
}

CsvOptions legacyCsvOptions() {
  CsvOptions options;
  options.delimiterCandidates = ",;\t";
  options.decimal = '.';
  options.missingTokens = {""};
  return options;
}

namespace csv {
namespace {

[[noreturn]] void badOption(const std::string& name, const std::string& requirement,
                            const std::string& value) {
  throw Error(ErrorCode::kBadParameter, name,
              name + " must be " + requirement + ", but is " + value);
}

std::string shownChar(char c) {
  if (c == 0) return "none";
  return quote(std::string(1, c));
}

bool isDelimiter(char c) { return c == ',' || c == ';' || c == '\t' || c == '|'; }

}  // namespace

void validateOptions(const CsvOptions& o) {
  if (o.delimiter != 0 && !isDelimiter(o.delimiter)) {
    badOption("delimiter", "one of \",\", \";\", \"\\t\", \"|\"", shownChar(o.delimiter));
  }
  if (o.decimal != 0 && o.decimal != '.' && o.decimal != ',') {
    badOption("decimal", "\".\" or \",\"", shownChar(o.decimal));
  }
  if (o.delimiter == 0) {
    if (o.delimiterCandidates.empty()) {
      badOption("delimiterCandidates", "a non-empty set of delimiters", "empty");
    }
    for (const char c : o.delimiterCandidates) {
      if (!isDelimiter(c)) {
        badOption("delimiterCandidates", "made of \",\", \";\", \"\\t\", \"|\"",
                  quote(o.delimiterCandidates));
      }
    }
  }
  for (const std::string& token : o.missingTokens) {
    const char* b = token.data();
    const char* e = b + token.size();
    trim(b, e, CsvEncoding::kUtf8);
    // Cells are compared after trimming, so an untrimmed token would never match.
    if (b != token.data() || e != token.data() + token.size()) {
      badOption("missingTokens", "trimmed strings", quote(token));
    }
    if (checkUtf8(reinterpret_cast<const unsigned char*>(token.data()), token.size()).status !=
        Utf8Status::kOk) {
      badOption("missingTokens", "UTF-8 strings without NUL", quote(token));
    }
  }
  if (o.maxRowBytes < 1) badOption("maxRowBytes", "at least 1", std::to_string(o.maxRowBytes));
  if (o.distinctCap > (std::size_t{1} << 24)) {
    badOption("distinctCap", "at most 2^24", std::to_string(o.distinctCap));
  }
  if (o.numericDistinctCap > (std::size_t{1} << 24)) {
    badOption("numericDistinctCap", "at most 2^24", std::to_string(o.numericDistinctCap));
  }
}

void throwEncodingError(std::uint64_t at, std::int64_t line, Utf8Status status,
                        unsigned char byte) {
  ErrorLocation location;
  location.line = line;
  location.byte = static_cast<std::int64_t>(at);
  const std::string where =
      "at byte " + std::to_string(at) + ", line " + std::to_string(line);
  if (status == Utf8Status::kNul) {
    throw Error(ErrorCode::kCsvParse, "",
                "the file is not text: it has a NUL byte " + where +
                    " (a binary file, or a spreadsheet); save or export the table as CSV UTF-8",
                location);
  }
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", byte);
  std::string message = "the file is not valid UTF-8 text (" + where + ": byte " + hex;
  // Bytes 0x80–0xFF that are not UTF-8 are, in practice, Windows-1252/Latin-1 text (Excel's
  // "CSV" on Windows, older exports). Five bytes are unassigned there: no hint for those.
  const bool assigned = byte >= 0x80 && byte != 0x81 && byte != 0x8D && byte != 0x8F &&
                        byte != 0x90 && byte != 0x9D;
  if (assigned) {
    std::string shown;
    appendCodePoint(shown, windows1252(byte));
    message += ", which is " + quote(shown) +
               " in Latin-1/Windows-1252: the file is probably in that encoding); save it as "
               "UTF-8 (in Excel: 'CSV UTF-8'), or read it with encoding \"latin1\"";
  } else {
    message += "); save it as UTF-8";
  }
  throw Error(ErrorCode::kCsvParse, "", message, location);
}

}  // namespace csv
}  // namespace dpmargin::data
