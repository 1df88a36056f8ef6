// A training run on a CSV (CsvRun) and reading a CSV with a model's encoding (CsvRead): the
// passes over the bytes and every decision between them (run.hpp, docs/reference/DATA_PIPELINE.md).
#include <algorithm>
#include <cmath>

#include "dpmargin/error.hpp"
#include "dpmargin/run/run.hpp"
#include "run/csv_plan.hpp"
#include "run/rules.hpp"

namespace dpmargin::run {

using namespace detail;

// ---- CsvRun ----

namespace {
const Options& validated(const Options& o, CsvRun::Mode mode) {
  if (mode == CsvRun::Mode::kPrivate) {
    validate(o);
  } else {
    data::validateTableOptions(o.table);
    if (o.maxBytes) requirePositive("maxBytes", *o.maxBytes);
  }
  return o;
}
}  // namespace

CsvRun::CsvRun(Options options, std::optional<std::vector<std::uint64_t>> rows, Mode mode)
    : options_(withSelectorRules(std::move(options))),
      mode_(mode),
      reader_(data::csvOptionsFor(validated(options_, mode_).table), std::move(rows)) {
  reader_.setMaxBytes(options_.maxBytes.value_or(double(learn::kMaxTableValues) * 4.0));
}

CsvRun::~CsvRun() = default;

void CsvRun::feed(const char* data, std::size_t size) {
  if (pass_ == Pass::kDone) throw Error(ErrorCode::kInternal, "", "CsvRun: feed() after the last pass");
  reader_.feed(data, size);
}

void CsvRun::expectBytes(std::uint64_t sourceBytes) {
  if (pass_ != Pass::kScan || reader_.bytes() > 0) {
    throw Error(ErrorCode::kInternal, "", "CsvRun: expectBytes() after the first feed");
  }
  reader_.keepScanValues(sourceBytes);
}

std::uint64_t CsvRun::bytes() const { return reader_.bytes(); }
std::uint64_t CsvRun::rows() const { return reader_.rowsRead(); }

void CsvRun::endPass() {
  switch (pass_) {
    case Pass::kScan:
      reader_.finishScan();
      return afterScan();
    case Pass::kCount:
      return afterCount();
    case Pass::kFill:
      return afterFill();
    case Pass::kDone:
      throw Error(ErrorCode::kInternal, "", "CsvRun: endPass() after the last pass");
  }
}

const data::CsvScan& CsvRun::scan() const { return reader_.scan(); }
plan::Plan CsvRun::budget() const {
  if (pass_ == Pass::kScan) throw Error(ErrorCode::kInternal, "", "CsvRun: budget() before the scan");
  return plan::makeBudget(budgetRequest(m_));
}
const data::Schema& CsvRun::schema() const { return schema_; }

namespace {
void requireDone(bool done, const char* what) {
  if (!done) throw Error(ErrorCode::kInternal, "", std::string("CsvRun: ") + what + " before the last pass");
}
}  // namespace

const data::Encoding& CsvRun::encoding() const { return encoding_; }
const learn::TrainSettings& CsvRun::settings() const {
  requireDone(pass_ == Pass::kDone && mode_ == Mode::kPrivate, "settings()");
  return settings_;
}
learn::Dataset& CsvRun::dataset() {
  requireDone(pass_ == Pass::kDone && dataset_, "dataset()");
  return *dataset_;
}
std::unique_ptr<learn::Dataset> CsvRun::takeDataset() {
  requireDone(pass_ == Pass::kDone && dataset_, "takeDataset()");
  return std::move(dataset_);
}
const std::vector<std::int32_t>& CsvRun::classCodes() const { return codes_; }
std::size_t CsvRun::classCount() const {
  if (schema_.label < 0) return 0;
  return schema_.classSource == data::ClassSource::kPositive ? 2 : schema_.classes.size();
}
const data::FillResult& CsvRun::fillResult() const { return fill_; }
std::uint64_t CsvRun::labelOutsideClasses() const { return outside_; }
random::Generator CsvRun::takeGenerator() {
  requireDone(pass_ == Pass::kDone && generator_, "takeGenerator()");
  random::Generator g = std::move(*generator_);
  generator_.reset();
  return g;
}

plan::PlanRequest CsvRun::budgetRequest(std::uint64_t m) const {
  return csvBudgetRequest(options_, budget_, m, m > 0 && schema_.discoversClasses());
}

void CsvRun::afterScan() {
  // The schema (docs/reference/PRIVACY_SCHEMA.md, "The schema"): what the header and the options decide is
  // public (and its errors come first); what is read off the cells comes from counts of the
  // training rows — exact in a local read (readCsv, the profile: never released), noisy in a
  // private run, released at μ_schema before anything else is drawn.
  const data::SchemaPurpose purpose = mode_ == Mode::kLocal ? data::SchemaPurpose::kSummary : data::SchemaPurpose::kTrain;
  const data::SchemaQuestions questions = data::schemaQuestions(reader_.scan(), options_.table, purpose);
  const std::uint64_t n = reader_.selectedRows();
  requireTrainingRows(n);
  generator_ = std::make_unique<random::Generator>(
      options_.seed || mode_ == Mode::kLocal ? random::Generator::seeded(options_.seed.value_or(0))
                                             : random::Generator::secure());
  data::SchemaEvidence evidence = data::exactEvidence(reader_.scan());
  evidence.rows = double(n);
  budget_.n = n;
  if (mode_ == Mode::kPrivate) {
    budget_ = csvBudget(options_, questions, n);
    if (budget_.schemaCoordinates > 0) {
      const plan::Plan budget = plan::makeBudget(budgetRequest(0));
      evidence = data::releaseEvidence(evidence, questions, budget.schemaSigma, *generator_);
    }
  }
  schema_ = data::resolveSchema(reader_.scan(), options_.table, purpose, evidence);
  std::vector<std::size_t> discover;
  if (mode_ == Mode::kLocal) {
    // Local: every text column's levels are read exactly (up to maxLevels).
    bool automatic = false;
    for (std::size_t j : schema_.featureOrder) {
      data::ColumnSchema& c = schema_.columns[j];
      if (c.kind != data::ColumnKind::kCategorical) continue;
      automatic = automatic || c.categories == data::CategorySource::kAuto;
      if (c.categories == data::CategorySource::kAuto) c.categories = data::CategorySource::kDiscover;
      if (c.categories == data::CategorySource::kDiscover) discover.push_back(j);
    }
    if (automatic) std::sort(discover.begin(), discover.end());
  } else {
    discover = discoverOrHash(schema_, options_, budget_);
  }
  discovered_ = discover;
  if (schema_.discoversClasses()) discovered_.push_back(schema_.columns[std::size_t(schema_.label)].file);
  m_ = discovered_.size();
  if (m_ > 0) {
    reader_.beginCount(discovered_);
    pass_ = Pass::kCount;
  } else {
    beginFill();
  }
}

void CsvRun::afterCount() {
  const std::vector<data::DiscoveryCounts> counts = reader_.finishCount();
  std::vector<std::size_t> maxLevels(m_, std::size_t(schema_.maxLevels));
  const bool label = schema_.discoversClasses();
  if (label) maxLevels.back() = data::kMaxClasses;
  std::vector<std::vector<std::string>> levels;
  double classThreshold = 0;
  if (mode_ == Mode::kPrivate) {
    // The label's classes from a noisy histogram of their own (plan.labelDiscovery), the other
    // columns' levels from one joint histogram (plan.discovery): docs/reference/PRIVACY_SCHEMA.md.
    const plan::Plan budget = plan::makeBudget(budgetRequest(m_));
    const std::size_t others = label ? m_ - 1 : m_;
    if (others > 0) {
      levels = data::discoverLevels(std::vector<data::DiscoveryCounts>(counts.begin(), counts.begin() + long(others)),
                                    std::vector<std::size_t>(maxLevels.begin(), maxLevels.begin() + long(others)),
                                    budget.discovery, *generator_);
    }
    if (label) {
      levels.push_back(data::discoverLevels({counts.back()}, {maxLevels.back()}, budget.labelDiscovery, *generator_)[0]);
      classThreshold = budget.labelDiscovery.threshold;
    }
  } else {
    // Local: no noise, every value present kept (the largest counts up to the cap).
    accounting::DiscoveryCalibration calibration;
    calibration.columns = m_;
    calibration.sigma = 0.0;
    calibration.threshold = 0.5;
    levels = data::discoverLevels(counts, maxLevels, calibration, *generator_);
  }
  for (std::size_t k = 0; k < m_; ++k) {
    const bool isLabel = label && k + 1 == m_;
    if (isLabel) {
      schema_.classes = levels[k];
    } else {
      schema_.columns[discovered_[k]].levels = levels[k];
    }
  }
  if (label) {
    if (schema_.classes.size() < 2) {
      const data::ColumnSchema& c = *schema_.labelColumn();
      throw Error(ErrorCode::kOneClass, "classes",
                  "private class discovery found " + std::to_string(schema_.classes.size()) +
                      " class(es) of label column " + Node::ofText(c.name).shown() +
                      " (a class needs about " + formatValue(std::ceil(classThreshold)) +
                      " rows to be found at this budget); declare the classes (classes, --classes), "
                      "name the positive class (positive, --positive), or raise epsilon");
    }
    if (schema_.classes.size() == 2) {
      schema_.positive = schema_.classes[1];
      schema_.positiveRule = "second-discovered";
    }
  }
  beginFill();
}

void CsvRun::beginFill() {
  encoding_ = data::makeEncoding(schema_);
  std::vector<std::string> classes;
  bool refuse = false;
  if (schema_.label >= 0) switch (schema_.classSource) {
    case data::ClassSource::kDeclared:
      classes = schema_.classes;
      refuse = true;
      break;
    case data::ClassSource::kBinary01:
      // 1 against the rest (a public rule: no cell refuses the run): the spellings of 1.
      classes = data::binaryPositiveSpellings();
      break;
    case data::ClassSource::kPositive:
      classes = {schema_.positive};
      break;
    case data::ClassSource::kDiscover:
      classes = schema_.classes;
      break;
  }
  const double maxBytes = options_.maxBytes.value_or(double(learn::kMaxTableValues) * 4.0);
  reader_.beginFill(schema_, encoding_, classes, refuse, maxBytes);
  pass_ = Pass::kFill;
  if (reader_.filledFromScan()) afterFill();  // a plain numeric table: the scan's values
}

void CsvRun::afterFill() {
  fill_ = reader_.finishFill();
  dataset_ = reader_.takeDataset();
  codes_ = reader_.labelCodes();
  if (schema_.label < 0) {  // a local read without a label
    pass_ = Pass::kDone;
    return;
  }
  outside_ = 0;
  if (schema_.classSource == data::ClassSource::kDiscover) {
    for (std::int32_t c : codes_) outside_ += c == data::kOtherCode ? 1 : 0;
  }
  if (schema_.classSource == data::ClassSource::kBinary01) {
    for (std::int32_t& c : codes_) c = c >= 0 ? 1 : 0;  // index in {"0" (the rest), "1"}
  } else if (schema_.classSource == data::ClassSource::kPositive) {
    for (std::int32_t& c : codes_) c = c == 0 ? 1 : 0;  // index in {rest, positive}
  }
  const std::size_t classes = classCount();
  if (classes == 2) {
    // The positive class's index: classes[1] unless `positive` names the other one.
    std::int32_t positive = 1;
    if (schema_.classSource == data::ClassSource::kDeclared && schema_.positive == schema_.classes[0]) positive = 0;
    std::int8_t* y = dataset_->labels();
    for (std::size_t i = 0; i < codes_.size(); ++i) y[i] = codes_[i] == positive ? 1 : -1;
  } else {
    // One-vs-rest: the trainer writes each class's labels; until then all negative.
    std::fill(dataset_->labels(), dataset_->labels() + dataset_->rows(), std::int8_t{-1});
  }
  if (mode_ == Mode::kLocal) {
    pass_ = Pass::kDone;
    return;
  }
  settings_ = csvSettings(options_, budget_, m_, schema_.discoversClasses(), encoding_, classes);
  if (classes == 2 && dataset_->rows() >= 2) {
    // Both classes among the rows, said in the table's words (the dataset's check names neither
    // the class nor the column).
    const std::int8_t* y = dataset_->labels();
    const std::size_t positives = std::size_t(std::count(y, y + dataset_->rows(), std::int8_t{1}));
    if (positives == 0 || positives == dataset_->rows()) {
      const std::string positive = schema_.classSource == data::ClassSource::kPositive ? schema_.positive
                                   : schema_.classSource == data::ClassSource::kBinary01 ? std::string("1")
                                   : schema_.classSource == data::ClassSource::kDeclared && schema_.positive == schema_.classes[0]
                                       ? schema_.classes[0] : schema_.classes[1];
      // A local refusal before any release (the owner's own data, nothing drawn is released).
      throw Error(ErrorCode::kOneClass, "classes",
                  "all " + std::to_string(dataset_->rows()) + " rows are " + (positives == 0 ? "negative" : "positive") +
                      " for positive class " + Node::ofText(positive).shown() + " of label column " +
                      Node::ofText(schema_.labelColumn()->name).shown() +
                      ": training needs both classes; declare the classes (classes, --classes) or name the positive "
                      "class (positive, --positive)");
    }
  }
  if (classes == 2) dataset_->validate(true);
  pass_ = Pass::kDone;
}

// ---- CsvRead ----

CsvRead::CsvRead(const Options& options, data::Encoding encoding, std::vector<std::string> classes,
                 std::optional<std::vector<std::uint64_t>> rows)
    : options_(options),
      encoding_(std::move(encoding)),
      classes_(std::move(classes)),
      reader_((data::validateTableOptions(options.table), data::csvOptionsFor(options.table)), std::move(rows)) {
  if (options_.maxBytes) requirePositive("maxBytes", *options_.maxBytes);
  reader_.setMaxBytes(options_.maxBytes.value_or(double(learn::kMaxTableValues) * 4.0));
}

void CsvRead::expectBytes(std::uint64_t sourceBytes) {
  if (pass_ != Pass::kScan || reader_.bytes() > 0) {
    throw Error(ErrorCode::kInternal, "", "CsvRead: expectBytes() after the first feed");
  }
  reader_.keepScanValues(sourceBytes);
}

void CsvRead::feed(const char* data, std::size_t size) {
  if (pass_ == Pass::kDone) throw Error(ErrorCode::kInternal, "", "CsvRead: feed() after the last pass");
  reader_.feed(data, size);
}
std::uint64_t CsvRead::bytes() const { return reader_.bytes(); }
std::uint64_t CsvRead::rows() const { return reader_.rowsRead(); }
const data::CsvScan& CsvRead::scan() const { return reader_.scan(); }

void CsvRead::endPass() {
  if (pass_ == Pass::kScan) {
    const data::CsvScan& scan = reader_.finishScan();
    schema_ = data::schemaForEncoding(scan, encoding_, options_.table.label);
    // A label column absent from the file is not an error here: prediction needs none (the
    // caller refuses it when the user named the column).
    labelled_ = schema_.label >= 0 && !classes_.empty();
    const double maxBytes = options_.maxBytes.value_or(double(learn::kMaxTableValues) * 4.0);
    reader_.beginFill(schema_, encoding_, labelled_ ? classes_ : std::vector<std::string>{}, false, maxBytes);
    pass_ = Pass::kFill;
    if (reader_.filledFromScan()) endPass();  // a plain numeric table: the scan's values
    return;
  }
  if (pass_ == Pass::kFill) {
    fill_ = reader_.finishFill();
    dataset_ = reader_.takeDataset();
    codes_ = reader_.labelCodes();
    if (labelled_) {
      // ±1 against the first class (the positive one of a binary model); the codes hold all.
      std::int8_t* y = dataset_->labels();
      for (std::size_t i = 0; i < codes_.size(); ++i) y[i] = codes_[i] == 0 ? 1 : -1;
    }
    pass_ = Pass::kDone;
    return;
  }
  throw Error(ErrorCode::kInternal, "", "CsvRead: endPass() after the last pass");
}

std::unique_ptr<learn::Dataset> CsvRead::takeDataset() {
  if (pass_ != Pass::kDone || !dataset_) throw Error(ErrorCode::kInternal, "", "CsvRead: takeDataset() before the last pass");
  return std::move(dataset_);
}
const std::vector<std::int32_t>& CsvRead::labelCodes() const { return codes_; }

}  // namespace dpmargin::run
