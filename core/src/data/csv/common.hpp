// Pieces shared by the scanner (pass 1) and the filler (pass 2). Internal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dpmargin/data/csv.hpp"

namespace dpmargin::data::csv {

// The raw cells of the header row → trimmed UTF-8 names.
std::vector<std::string> headerNames(const std::vector<std::string>& raw, CsvEncoding encoding);
// CSV_PARSE naming both columns when two names are equal.
void checkDuplicateNames(const std::vector<std::string>& names, std::int64_t line);
[[noreturn]] void throwRagged(std::int64_t line, std::uint32_t fields, std::size_t width);
[[noreturn]] void throwEmpty();
[[noreturn]] void throwNoRows(std::int64_t headerLine);
[[noreturn]] void throwMisuse(const char* what);

}  // namespace dpmargin::data::csv
