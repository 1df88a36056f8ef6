// Column names in messages: the header listed so that the column the user looks for is never
// cut off, and "did you mean" for a name the header does not hold (issue 29). Names only — no
// cell is read here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace dpmargin::data {

// Lower-case ASCII without spaces, '_', '-', '.': "Customer ID" and "customer_id" fold alike.
std::string foldName(const std::string& name);

// Up to `limit` names of `header` that read like `name`, closest first: those that are the same
// once folded (then only those); else those within a small edit distance of it (optimal string
// alignment on the folded names: at most 1, or a third of the shorter name), then those
// containing it or contained in it — both for names of 3 folded characters or more. `name`
// itself is never proposed.
std::vector<std::string> similarNames(const std::string& name, const std::vector<std::string>& header,
                                      std::size_t limit = 3);

// "; did you mean \"a\"?" (or "\"a\" or \"b\"") when the header holds names like `name`, else "".
std::string didYouMean(const std::string& name, const std::vector<std::string>& header);

// The header's names, quoted and comma-separated: every one of them up to 60 names; a wider
// header shows its first 40 and its last 10 ("…, 32 more, …": a label is often last) and the
// count.
std::string listColumns(const std::vector<std::string>& header);

// The position of column `name` in `header`, or an error naming it: LABEL_NOT_FOUND when
// `parameter` is "label", else BAD_PARAMETER, with the message
// `<what> "<name>" is not in the header (<listColumns>)<didYouMean>`.
std::size_t requireColumn(const std::vector<std::string>& header, const std::string& name,
                          const std::string& parameter, const std::string& what);

}  // namespace dpmargin::data
