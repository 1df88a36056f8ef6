// Dialect detection and file-format sniffing on the first bytes of a file. Internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "dpmargin/data/csv.hpp"

namespace dpmargin::data::csv {

// The detection sample ends after this many line breaks (max of LF and CR counts), or after
// kSampleBytes once it holds a line break, or at the row cap: a function of the bytes only,
// so detection never depends on how the input was chunked.
inline constexpr std::size_t kSampleBreaks = 41;
inline constexpr std::size_t kSampleBytes = std::size_t{1} << 16;
// Rows of the sample that delimiter detection looks at (as the TypeScript reader: 2 × 20).
inline constexpr std::size_t kDetectRows = 40;

// Throws CSV_PARSE for what is not CSV text: UTF-16 (byte order mark, or NUL bytes in every
// other position), a zip archive (.xlsx), an OLE2 document (.xls), gzip, other NUL bytes.
// Returns the length of a UTF-8 byte order mark to skip (0 or 3).
std::size_t sniff(const char* data, std::size_t size);

// Delimiter, decimal mark and newline from the sample (after the byte order mark). `final`:
// the sample is the whole file, so its last row is complete.
CsvDialect detectDialect(const char* data, std::size_t size, bool final,
                         const CsvOptions& options);

}  // namespace dpmargin::data::csv
