// The byte stream → cells machinery shared by both passes. Internal.
//
// CsvStream<Sink> takes bytes in any chunks and calls the sink for every cell and every row,
// as if the input had come in one piece:
//   - it buffers a detection sample (a prefix fixed by the bytes, dialect.hpp), sniffs the
//     format, picks the dialect, then tokenizes;
//   - it validates UTF-8 before tokenizing, holding back a character cut by a chunk end, and
//     tokenizes only up to a bad byte, so errors come in the order of the bytes;
//   - the tokenizer is one state machine whose state survives chunk ends; a cell that spans
//     chunks is copied into cell_, every other cell is a view into the chunk;
//   - an error found at byte b of a row that is already longer than the row cap at b is
//     reported as the too-long row, which is what a chunk end at the cap reports: the cap is
//     checked before every sink call and before every error the stream throws. (Not in a
//     catch block: under Emscripten's exceptions every call inside a try goes through a JS
//     trampoline, which slowed pass 1 in wasm: docs/CSV.md, "Speed".)
//
// Sink interface (duck-typed; templates let the compiler inline the per-cell calls):
//   void start(const CsvDialect&)                 once, before any cell
//   bool fastNumber(std::uint32_t field) const     try the number fast path for this field
//   void number(std::uint32_t field, float value, const char* b, const char* e)
//        a cell [b, e) that is a plain decimal (no space, no quotes) of finite float value
//   void cell(std::uint32_t field, const char* b, const char* e)   any other cell's content
//   void row(std::uint32_t fields)                the end of a row that is not blank
// A blank row (one field of white space only) produces no call at all.
#pragma once

#include <fast_float/fast_float.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "data/csv/cells.hpp"
#include "data/csv/dialect.hpp"
#include "data/csv/text.hpp"
#include "dpmargin/data/csv.hpp"

namespace dpmargin::data::csv {

// Checks the options shared by both passes (BAD_PARAMETER naming the option).
void validateOptions(const CsvOptions& options);

[[noreturn]] void throwEncodingError(std::uint64_t at, std::int64_t line, Utf8Status status,
                                     unsigned char byte);

template <class Sink>
class CsvStream {
 public:
  // `fixed`: the dialect of pass 1, for pass 2 (no detection then).
  CsvStream(const CsvOptions& options, const CsvDialect* fixed, Sink& sink)
      : options_(options), sink_(sink), maxRowBytes_(options.maxRowBytes) {
    if (fixed != nullptr) {
      fixed_ = *fixed;
      hasFixed_ = true;
    }
  }

  void feed(const char* data, std::size_t size) {
    fed_ += size;
    if (sampling_) {
      std::size_t used = 0;
      while (used < size && !sampleComplete()) {
        const char c = data[used++];
        sample_.push_back(c);
        lf_ += c == '\n';
        cr_ += c == '\r';
      }
      if (!sampleComplete()) return;
      startBody(false);
      data += used;
      size -= used;
    }
    body(data, size);
  }

  void finish() {
    if (sampling_) startBody(true);
    if (!held_.empty()) {
      // A UTF-8 sequence cut by the end of the file.
      throwEncoding(consumed_, Utf8Status::kIncomplete, static_cast<unsigned char>(held_[0]));
    }
    endOfInput();
  }

  const CsvDialect& dialect() const { return dialect_; }
  std::uint64_t bytes() const { return fed_; }
  const std::int64_t* rowLine() const { return &rowLine_; }
  bool started() const { return !sampling_; }

 private:
  enum State : std::uint8_t {
    kRowStart,    // before the first byte of a row
    kFieldStart,  // before the first byte of a field other than the first
    kUnquoted,    // inside an unquoted field
    kQuoted,      // inside a quoted field
    kQuoteSeen,   // just after a quote inside a quoted field: "" or the closing quote
    kAfterQuote,  // after the closing quote, skipping spaces up to a delimiter or line break
  };

  bool sampleComplete() const {
    const std::size_t breaks = lf_ > cr_ ? lf_ : cr_;
    const std::size_t n = sample_.size();
    return breaks >= kSampleBreaks || (n >= kSampleBytes && breaks >= 1) ||
           (n > 3 && n - 3 > options_.maxRowBytes);  // (a byte order mark + a row over the cap)
  }

  void startBody(bool final) {
    sampling_ = false;
    const std::size_t bom = sniff(sample_.data(), sample_.size());
    if (hasFixed_) {
      dialect_ = fixed_;
    } else {
      dialect_ = detectDialect(sample_.data() + bom, sample_.size() - bom, final, options_);
    }
    dialect_.bom = bom > 0;
    if (bom > 0) dialect_.encoding = CsvEncoding::kUtf8;  // the mark says what the bytes are
    configure();
    sink_.start(dialect_);
    consumed_ = bom;
    std::string sample;
    sample.swap(sample_);
    body(sample.data() + bom, sample.size() - bom);
  }

  void configure() {
    delimiter_ = dialect_.delimiter;
    // The fast path reads '.' when either mark is read (a cell with ',' falls back to the
    // classifier, which tries both).
    decimal_ = dialect_.decimal == kEitherDecimal ? '.' : dialect_.decimal;
    encoding_ = dialect_.encoding;
    std::memset(special_, 0, sizeof special_);
    special_[static_cast<unsigned char>(delimiter_)] = 1;
    special_[static_cast<unsigned char>('\n')] = special_[static_cast<unsigned char>('\r')] = 1;
    std::memset(quoted_, 0, sizeof quoted_);
    for (const unsigned char c : {'"', '\n', '\r'}) quoted_[c] = 1;
    numberOptions_ = fast_float::parse_options(fast_float::chars_format::general, decimal_);
    // The fast path reads a number straight off the chunk; it cannot when the decimal mark
    // also splits fields.
    fastPath_ = decimal_ != delimiter_;
  }

  // Validated bytes go to the tokenizer; a character cut by the chunk end waits in held_.
  void body(const char* data, std::size_t size) {
    while (!held_.empty() && size > 0) {
      held_.push_back(*data++);
      --size;
      const Utf8Check check =
          checkUtf8(reinterpret_cast<const unsigned char*>(held_.data()), held_.size());
      if (check.status == Utf8Status::kIncomplete) continue;
      if (check.status != Utf8Status::kOk) {
        throwEncoding(consumed_, check.status, static_cast<unsigned char>(held_[0]));
      }
      std::string piece;
      piece.swap(held_);
      parse(piece.data(), piece.data() + piece.size());
    }
    if (!held_.empty() || size == 0) return;
    if (encoding_ == CsvEncoding::kLatin1) {
      const void* nul = std::memchr(data, 0, size);
      const std::size_t valid =
          nul == nullptr ? size : static_cast<std::size_t>(static_cast<const char*>(nul) - data);
      parse(data, data + valid);
      if (nul != nullptr) throwEncoding(consumed_, Utf8Status::kNul, 0);
      return;
    }
    const Utf8Check check = checkUtf8(reinterpret_cast<const unsigned char*>(data), size);
    parse(data, data + check.valid);
    switch (check.status) {
      case Utf8Status::kOk:
        return;
      case Utf8Status::kIncomplete:
        held_.assign(data + check.valid, size - check.valid);
        return;
      case Utf8Status::kInvalid:
      case Utf8Status::kNul:
        throwEncoding(consumed_, check.status, static_cast<unsigned char>(data[check.valid]));
    }
  }

  [[noreturn]] void throwEncoding(std::uint64_t at, Utf8Status status, unsigned char byte) {
    checkCap(at);
    throwEncodingError(at, line_, status, byte);
  }

  std::uint64_t absAt(const char* p, const char* begin) const {
    return consumed_ + static_cast<std::uint64_t>(p - begin);
  }

  void checkCap(std::uint64_t at) const {
    if (state_ != kRowStart && at - rowStart_ > maxRowBytes_) tooLong();
  }

  [[noreturn]] __attribute__((noinline, cold)) void tooLong() const {
    ErrorLocation location;
    location.line = rowLine_;
    location.byte = static_cast<std::int64_t>(rowStart_);
    throw Error(ErrorCode::kCsvParse, "",
                "the row starting at line " + std::to_string(rowLine_) + " is longer than " +
                    std::to_string(maxRowBytes_) + " bytes (is a quote left open?)",
                location);
  }

  [[noreturn]] void malformed(std::uint64_t at) const {
    checkCap(at);
    ErrorLocation location;
    location.line = line_;
    location.byte = static_cast<std::int64_t>(at);
    throw Error(ErrorCode::kCsvParse, "",
                "malformed quoted field at line " + std::to_string(line_) +
                    ": a closing quote must be followed by a delimiter or a line break",
                location);
  }

  // Appends to the current cell's copy (cell_), starting it if needed.
  void carry(const char* b, const char* e) {
    if (!carried_) {
      cell_.clear();
      carried_ = true;
    }
    cell_.append(b, static_cast<std::size_t>(e - b));
  }

  // The current cell's content, given its uncopied tail [seg, stop).
  void content(const char* seg, const char* stop, const char*& b, const char*& e) {
    if (carried_) {
      carry(seg, stop);
      b = cell_.data();
      e = b + cell_.size();
    } else {
      b = seg;
      e = stop;
    }
  }

  // Consumes the line break at p (CRLF as one) and starts a new row.
  void lineBreak(const char*& p, const char* end) {
    ++line_;
    if (*p == '\r') {
      if (p + 1 < end) {
        if (p[1] == '\n') ++p;
      } else {
        crPending_ = true;
      }
    }
    ++p;
    state_ = kRowStart;
  }

  // The field [b, e) ended at p (a delimiter or a line break).
  void fieldEnd(const char* b, const char* e, const char*& p, const char* end,
                const char* begin) {
    checkCap(absAt(p, begin));
    if (*p == delimiter_) {
      sink_.cell(field_, b, e);
      ++field_;
      ++p;
      state_ = kFieldStart;
      return;
    }
    if (field_ != 0 || !isBlank(b, e, encoding_)) {
      sink_.cell(field_, b, e);
      sink_.row(field_ + 1);
    }
    lineBreak(p, end);
  }

  // The fast path of numeric tables: plain decimals ended by a delimiter or a line break,
  // field after field and row after row, parsed by fast_float straight off the chunk with
  // the state in locals. Advances `at` past what it consumed (not at all when the field at
  // `at` is not such a number) and leaves the state kFieldStart or kRowStart, as the general
  // loop expects.
  void numbers(const char*& at, const char* const end, const char* const begin) {
    const char* p = at;
    std::uint32_t field = field_;
    const char delimiter = delimiter_;
    const char decimal = decimal_;
    const fast_float::parse_options options = numberOptions_;
    while (sink_.fastNumber(field) && startsPlainNumber(*p, decimal)) {
      double d;
      const char* q = parseShortDecimal(p, end, decimal, d);
      if (q == nullptr) {
        const auto r = fast_float::from_chars_advanced(p, end, d, options);
        if (r.ec != std::errc() || r.ptr >= end) break;
        q = r.ptr;
      }
      const char t = *q;
      if (t != delimiter && t != '\n' && t != '\r') break;
      const float f = static_cast<float>(d);
      if (!std::isfinite(f)) break;
      const char* b = p;
      p = q;
      at = p;
      field_ = field;
      checkCap(absAt(p, begin));
      sink_.number(field, f, b, p);
      if (t == delimiter) {
        ++field;
        at = ++p;
        if (p >= end) break;
        continue;
      }
      sink_.row(field + 1);
      lineBreak(p, end);
      at = p;
      if (p >= end) return;  // kRowStart (a CR at the end leaves crPending_ set)
      rowStart_ = absAt(p, begin);
      rowLine_ = line_;
      field = 0;
      field_ = 0;
      state_ = kFieldStart;
    }
    field_ = field;
  }

  void parse(const char* const begin, const char* const end) {
    const char* p = begin;
    const char* seg = begin;  // start of the current cell's content not yet in cell_
    if (state_ == kQuoteSeen) quote_ = begin;
    {
      while (p < end) {
        switch (state_) {
          case kRowStart:
            if (crPending_) {  // the LF of a CRLF cut by a chunk end
              crPending_ = false;
              if (*p == '\n') {
                ++p;
                continue;
              }
            }
            rowStart_ = absAt(p, begin);
            rowLine_ = line_;
            field_ = 0;
            state_ = kFieldStart;
            [[fallthrough]];
          case kFieldStart: {
            if (*p == '"') {
              quoteLine_ = line_;
              ++p;
              seg = p;
              carried_ = false;
              state_ = kQuoted;
              continue;
            }
            if (fastPath_) {
              const char* const before = p;
              numbers(p, end, begin);
              if (p != before) continue;
            }
            seg = p;
            carried_ = false;
            state_ = kUnquoted;
            [[fallthrough]];
          }
          case kUnquoted: {
            const char* q = p;
            while (q < end && !special_[static_cast<unsigned char>(*q)]) ++q;
            p = q;
            if (q == end) continue;
            const char *b, *e;
            content(seg, q, b, e);
            fieldEnd(b, e, p, end, begin);
            continue;
          }
          case kQuoted: {
            if (crPending_) {
              crPending_ = false;
              if (*p == '\n') {  // content, but not a second line
                ++p;
                continue;
              }
            }
            const char* q = p;
            while (q < end && !quoted_[static_cast<unsigned char>(*q)]) ++q;
            if (q == end) {
              p = end;
              continue;
            }
            if (*q == '"') {
              quote_ = q;
              p = q + 1;
              state_ = kQuoteSeen;
              continue;
            }
            ++line_;  // a line break inside the quotes still counts as a file line
            if (*q == '\r') {
              if (q + 1 < end) {
                if (q[1] == '\n') ++q;
              } else {
                crPending_ = true;
              }
            }
            p = q + 1;
            continue;
          }
          case kQuoteSeen: {
            const char c = *p;
            if (c == '"') {  // "" stands for one quote
              carry(seg, quote_);
              cell_.push_back('"');
              ++p;
              seg = p;
              state_ = kQuoted;
              continue;
            }
            if (c == delimiter_ || c == '\n' || c == '\r') {
              const char *b, *e;
              content(seg, quote_, b, e);
              fieldEnd(b, e, p, end, begin);
              continue;
            }
            if (c == ' ' || c == '\t') {  // spaces after the closing quote, as PapaParse
              carry(seg, quote_);
              ++p;
              state_ = kAfterQuote;
              continue;
            }
            malformed(absAt(p, begin));
          }
          case kAfterQuote: {
            while (p < end && (*p == ' ' || *p == '\t') && *p != delimiter_) ++p;
            if (p == end) continue;
            if (*p == delimiter_ || *p == '\n' || *p == '\r') {
              const char* b = cell_.data();
              fieldEnd(b, b + cell_.size(), p, end, begin);
              continue;
            }
            malformed(absAt(p, begin));
          }
        }
      }
    }
    switch (state_) {
      case kUnquoted:
      case kQuoted:
        carry(seg, end);
        break;
      case kQuoteSeen:
        carry(seg, quote_);
        break;
      default:
        break;
    }
    consumed_ += static_cast<std::uint64_t>(end - begin);
    checkCap(consumed_);
  }

  void endOfInput() {
    switch (state_) {
      case kRowStart:
        return;
      case kQuoted: {
        checkCap(consumed_);
        ErrorLocation location;
        location.line = quoteLine_;
        throw Error(ErrorCode::kCsvParse, "",
                    "unterminated quoted field starting at line " + std::to_string(quoteLine_) +
                        " (a quote is never closed)",
                    location);
      }
      default:
        break;
    }
    checkCap(consumed_);
    const char* b = carried_ && state_ != kFieldStart ? cell_.data() : "";
    const char* e = carried_ && state_ != kFieldStart ? b + cell_.size() : b;
    if (field_ != 0 || !isBlank(b, e, encoding_)) {
      sink_.cell(field_, b, e);
      sink_.row(field_ + 1);
    }
    state_ = kRowStart;
  }

  const CsvOptions& options_;
  Sink& sink_;
  CsvDialect fixed_;
  bool hasFixed_ = false;
  CsvDialect dialect_;

  // Front end.
  bool sampling_ = true;
  std::string sample_;
  std::size_t lf_ = 0, cr_ = 0;
  std::string held_;          // the start of a UTF-8 character cut by a chunk end
  std::uint64_t fed_ = 0;     // bytes fed
  std::uint64_t consumed_ = 0;  // bytes tokenized (file offset of the next one)

  // Tokenizer.
  char delimiter_ = ',';
  char decimal_ = '.';
  CsvEncoding encoding_ = CsvEncoding::kUtf8;
  bool fastPath_ = true;
  fast_float::parse_options numberOptions_;
  unsigned char special_[256] = {};  // ends an unquoted field: delimiter, LF, CR
  unsigned char quoted_[256] = {};   // stops the scan of a quoted field: quote, LF, CR
  State state_ = kRowStart;
  bool crPending_ = false;  // the last byte was a CR: a following LF belongs to it
  bool carried_ = false;    // cell_ holds the start of the current cell
  std::string cell_;
  const char* quote_ = nullptr;  // the quote that put us in kQuoteSeen
  std::uint32_t field_ = 0;
  std::int64_t line_ = 1;
  std::int64_t rowLine_ = 1;
  std::int64_t quoteLine_ = 1;
  std::uint64_t rowStart_ = 0;
  std::uint64_t maxRowBytes_;
};

}  // namespace dpmargin::data::csv
