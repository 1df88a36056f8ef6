// Registrations: reading CSV bytes with the core (run::CsvRun for training, run::CsvRead with a
// model's encoding, a scan for the summary, run::CsvPreview for a run's preview). JavaScript
// streams the file's bytes into a buffer owned here (buffer(size) → a Uint8Array view to fill,
// then feed(size)), once per pass; every decision between the passes is the core's.
#include <emscripten/bind.h>

#include <memory>
#include <vector>

#include "dataset.hpp"
#include "dpmargin/data/csv.hpp"
#include "dpmargin/data/names.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/run/run.hpp"
#include "guard.hpp"
#include "marshal.hpp"

namespace dpmargin::wasm {
namespace {

// The bytes of one chunk, in wasm memory.
class ByteBuffer {
 public:
  val view(const val& size) {
    bytes_.resize(std::size_t(toCount(size, "size", 0)));
    return val(emscripten::typed_memory_view(bytes_.size(), reinterpret_cast<unsigned char*>(bytes_.data())));
  }
  std::pair<const char*, std::size_t> chunk(const val& size) const {
    const std::size_t n = std::size_t(toCount(size, "size", 0));
    if (n > bytes_.size()) throw Error(ErrorCode::kInternal, "", "feed(size) larger than the buffer");
    return {bytes_.data(), n};
  }

 private:
  std::vector<char> bytes_;
};

val progressOf(std::uint64_t bytes, std::uint64_t rows) {
  val o = val::object();
  o.set("bytes", double(bytes));
  o.set("rows", double(rows));
  return o;
}

const char* passName(run::CsvRun::Pass p) {
  switch (p) {
    case run::CsvRun::Pass::kScan: return "scan";
    case run::CsvRun::Pass::kCount: return "count";
    case run::CsvRun::Pass::kFill: return "fill";
    case run::CsvRun::Pass::kDone: return "done";
  }
  return "done";
}

val fillOf(const data::FillResult& f) {
  val o = val::object();
  o.set("imputed", double(f.imputed));
  o.set("marked", double(f.marked));
  return o;
}

}  // namespace

// A training run on a CSV: start(csvOptions, trainOptions, rows | null).
class WasmCsvRun {
 public:
  void start(val csvOptions, val trainOptions, val rows) {
    run::Options o;
    addOptions(o, csvOptions, "csv", true);
    addOptions(o, trainOptions, "options", false);
    run_.reset();
    run_ = std::make_unique<run::CsvRun>(std::move(o), toRows(rows, "rows"));
  }
  // The same table for the user's own eyes (categories and classes read exactly; NOT private,
  // never released): the margin profile, readCsv.
  void startLocal(val csvOptions, val rows) {
    run::Options o;
    addOptions(o, csvOptions, "csv", true);
    run_.reset();
    run_ = std::make_unique<run::CsvRun>(std::move(o), toRows(rows, "rows"), run::CsvRun::Mode::kLocal);
  }
  // Int32Array: per row the class index in the schema's classes (−2: none of them).
  val classCodes() {
    const auto& c = run().classCodes();
    val out = val::global("Int32Array").new_(c.size());
    out.call<void>("set", val(emscripten::typed_memory_view(c.size(), c.data())));
    return out;
  }
  val pass() { return val(std::string(passName(run().pass()))); }
  // The source's size in bytes, before the first feed: a plain numeric table in one pass.
  void expectBytes(val bytes) { run().expectBytes(toCount(bytes, "bytes", 0)); }
  val buffer(val size) { return buffer_.view(size); }
  void feed(val size) {
    const auto c = buffer_.chunk(size);
    run().feed(c.first, c.second);
  }
  void endPass() { run().endPass(); }
  val progress() { return progressOf(run().bytes(), run().rows()); }
  val schema() { return fromNode(data::describeSchema(run().schema())); }
  // What a ledger records of the run (ledger.ts ledgerRun), before discovery draws noise.
  val budget() {
    const plan::Plan b = run().budget();
    val o = val::object();
    o.set("epsilon", b.request.epsilon);
    o.set("delta", b.request.delta);
    o.set("selector", std::string(plan::toString(b.request.selector)));
    o.set("mu", b.mu);
    o.set("deltaGdp", b.deltaGdp);
    return o;
  }
  val encoding() { return fromNode(data::describeEncoding(run().encoding())); }
  val featureNames() { return fromNode(Node::ofTexts(run().encoding().names())); }
  val fill() {
    val o = fillOf(run().fillResult());
    o.set("labelOutside", double(run().labelOutsideClasses()));
    return o;
  }
  // The label column's entry of run::summarizeScan, from the run's own scan (what CsvScan.finish
  // lists for it; null without a label): local, never released.
  val labelSummary(val maxValues) {
    const auto label = run().schema().label;
    if (label < 0) return val::null();
    return fromNode(run::summarizeColumn(run().scan(), std::size_t(label), std::size_t(toCount(maxValues, "maxValues", 0))));
  }
  // Moves the table into `dataset` (a Dataset object the caller owns and disposes).
  void takeDataset(val dataset) { toDataset(dataset, "dataset").adopt(run().takeDataset()); }
  void release() { run_.reset(); }
  run::CsvRun& run() {
    if (!run_) throw Error(ErrorCode::kInternal, "", "CsvRun used before start()");
    return *run_;
  }

 private:
  std::unique_ptr<run::CsvRun> run_;
  ByteBuffer buffer_;
};

run::CsvRun& toCsvRun(const val& v, const char* name) {
  if (!v.instanceof(val::module_property("CsvRun"))) {
    throw Error(ErrorCode::kBadParameter, name, std::string(name) + " must be a CsvRun");
  }
  return v.as<WasmCsvRun*>(emscripten::allow_raw_pointers())->run();
}

// Reading a CSV with a model's encoding: start(csvOptions, encoding, classes | null, rows | null).
class WasmCsvRead {
 public:
  void start(val csvOptions, val encoding, val classes, val rows) {
    run::Options o;
    addOptions(o, csvOptions, "csv", true);
    data::Encoding e = data::parseEncoding(toNode(encoding, "encoding"), "encoding");
    std::vector<std::string> cls;
    if (!isUnset(classes)) cls = nodeTexts(toNode(classes, "classes"), "classes");
    read_.reset();
    read_ = std::make_unique<run::CsvRead>(o, std::move(e), std::move(cls), toRows(rows, "rows"));
  }
  val pass() {
    switch (read().pass()) {
      case run::CsvRead::Pass::kScan: return val(std::string("scan"));
      case run::CsvRead::Pass::kFill: return val(std::string("fill"));
      case run::CsvRead::Pass::kDone: return val(std::string("done"));
    }
    return val(std::string("done"));
  }
  // The source's size in bytes, before the first feed: a plain numeric table in one pass.
  void expectBytes(val bytes) { read().expectBytes(toCount(bytes, "bytes", 0)); }
  val buffer(val size) { return buffer_.view(size); }
  void feed(val size) {
    const auto c = buffer_.chunk(size);
    read().feed(c.first, c.second);
  }
  void endPass() { read().endPass(); }
  val progress() { return progressOf(read().bytes(), read().rows()); }
  val labelled() { return val(read().labelled()); }
  // Int32Array: per row the class index, or −2 (not one of the model's classes).
  val labelCodes() {
    const auto& c = read().labelCodes();
    val out = val::global("Int32Array").new_(c.size());
    out.call<void>("set", val(emscripten::typed_memory_view(c.size(), c.data())));
    return out;
  }
  val fill() { return fillOf(read().fillResult()); }
  val rowCount() { return val(double(read().scan().rows)); }
  // The file's column names (after the scan pass).
  val header() {
    std::vector<std::string> names;
    for (const auto& c : read().scan().columns) names.push_back(c.name);
    return fromNode(Node::ofTexts(names));
  }
  void takeDataset(val dataset) { toDataset(dataset, "dataset").adopt(read().takeDataset()); }
  void release() { read_.reset(); }

 private:
  run::CsvRead& read() {
    if (!read_) throw Error(ErrorCode::kInternal, "", "CsvRead used before start()");
    return *read_;
  }
  std::unique_ptr<run::CsvRead> read_;
  ByteBuffer buffer_;
};

// The preview's scan: start(csvOptions, previewRows), chunks, then finish(maxValues) → the summary.
class WasmCsvScan {
 public:
  void start(val csvOptions, val previewRows) {
    options_ = run::Options{};
    addOptions(options_, csvOptions, "csv", true);
    data::validateTableOptions(options_.table);
    data::CsvOptions csv = data::csvOptionsFor(options_.table);
    csv.previewRows = std::size_t(toCount(previewRows, "previewRows", 0));
    if (csv.previewRows > 1000) throwBadParameter("previewRows", "at most 1000", double(csv.previewRows));
    scanner_ = std::make_unique<data::CsvScanner>(csv);
  }
  val buffer(val size) { return buffer_.view(size); }
  void feed(val size) {
    const auto c = buffer_.chunk(size);
    scanner().feed(c.first, c.second);
  }
  val progress() { return progressOf(scanner().bytes(), scanner().rows()); }
  // The header as soon as it is read (null before).
  val header() {
    const std::vector<std::string>* h = scanner().header();
    return h == nullptr ? val::null() : fromNode(Node::ofTexts(*h));
  }
  val finish(val maxValues) {
    const data::CsvScan scan = scanner().finish();
    scanner_.reset();
    return fromNode(run::summarizeScan(scan, options_, std::size_t(toCount(maxValues, "maxValues", 0))));
  }
  void release() { scanner_.reset(); }

 private:
  data::CsvScanner& scanner() {
    if (!scanner_) throw Error(ErrorCode::kInternal, "", "CsvScan used before start()");
    return *scanner_;
  }
  run::Options options_;
  std::unique_ptr<data::CsvScanner> scanner_;
  ByteBuffer buffer_;
};

// data::requireColumn: the column's index, or the core's error naming it (every column listed,
// "did you mean").
val requireColumn(val header, val name, val parameter, val what) {
  const std::string p = toText(parameter, "parameter");
  return val(double(data::requireColumn(nodeTexts(toNode(header, "header"), "header"), toText(name, p.c_str()), p,
                                        toText(what, "what"))));
}

// data::publicColumns: the label and the columns a model may read, by name.
val publicColumns(val header, val csvOptions) {
  const std::vector<std::string> names = nodeTexts(toNode(header, "header"), "header");
  run::Options o;
  addOptions(o, csvOptions, "csv", true);
  data::validateTableOptions(o.table);
  const data::PublicColumns found = data::publicColumns(names, o.table);
  std::vector<std::string> features;
  for (std::size_t j : found.features) features.push_back(names[j]);
  val out = val::object();
  out.set("label", found.label >= 0 ? val(names[std::size_t(found.label)]) : val::null());
  out.set("features", fromNode(Node::ofTexts(features)));
  return out;
}

// The preview of a run (run::CsvPreview): start(csvOptions, runOptions | null, rows | null,
// previewRows), the scan's chunks, then preview(maxValues) → run::previewCsv.
class WasmCsvPreview {
 public:
  void start(val csvOptions, val runOptions, val rows, val previewRows) {
    run::Options o;
    addOptions(o, csvOptions, "csv", true);
    const bool planned = !isUnset(runOptions);
    if (planned) addOptions(o, runOptions, "options", false);
    preview_.reset();
    preview_ = std::make_unique<run::CsvPreview>(std::move(o), planned, toRows(rows, "rows"),
                                                 std::size_t(toCount(previewRows, "previewRows", 0)));
  }
  val pass() { return val(std::string(preview().done() ? "done" : "scan")); }
  val buffer(val size) { return buffer_.view(size); }
  void feed(val size) {
    const auto c = buffer_.chunk(size);
    preview().feed(c.first, c.second);
  }
  void endPass() { preview().endPass(); }
  val progress() { return progressOf(preview().bytes(), preview().rows()); }
  val result(val maxValues) { return fromNode(preview().preview(std::size_t(toCount(maxValues, "maxValues", 0)))); }
  void release() { preview_.reset(); }

 private:
  run::CsvPreview& preview() {
    if (!preview_) throw Error(ErrorCode::kInternal, "", "CsvPreview used before start()");
    return *preview_;
  }
  std::unique_ptr<run::CsvPreview> preview_;
  ByteBuffer buffer_;
};

}  // namespace dpmargin::wasm

EMSCRIPTEN_BINDINGS(dpmargin_csv) {
  using namespace dpmargin::wasm;
  GuardedClass<WasmCsvRun>("CsvRun")
      .method<&WasmCsvRun::start>("start")
      .method<&WasmCsvRun::startLocal>("startLocal")
      .method<&WasmCsvRun::classCodes>("classCodes")
      .method<&WasmCsvRun::pass>("pass")
      .method<&WasmCsvRun::expectBytes>("expectBytes")
      .method<&WasmCsvRun::buffer>("buffer")
      .method<&WasmCsvRun::feed>("feed")
      .method<&WasmCsvRun::endPass>("endPass")
      .method<&WasmCsvRun::progress>("progress")
      .method<&WasmCsvRun::schema>("schema")
      .method<&WasmCsvRun::budget>("budget")
      .method<&WasmCsvRun::encoding>("encoding")
      .method<&WasmCsvRun::featureNames>("featureNames")
      .method<&WasmCsvRun::fill>("fill")
      .method<&WasmCsvRun::labelSummary>("labelSummary")
      .method<&WasmCsvRun::takeDataset>("takeDataset")
      .method<&WasmCsvRun::release>("release");
  GuardedClass<WasmCsvRead>("CsvRead")
      .method<&WasmCsvRead::start>("start")
      .method<&WasmCsvRead::pass>("pass")
      .method<&WasmCsvRead::expectBytes>("expectBytes")
      .method<&WasmCsvRead::buffer>("buffer")
      .method<&WasmCsvRead::feed>("feed")
      .method<&WasmCsvRead::endPass>("endPass")
      .method<&WasmCsvRead::progress>("progress")
      .method<&WasmCsvRead::labelled>("labelled")
      .method<&WasmCsvRead::labelCodes>("labelCodes")
      .method<&WasmCsvRead::fill>("fill")
      .method<&WasmCsvRead::rowCount>("rowCount")
      .method<&WasmCsvRead::header>("header")
      .method<&WasmCsvRead::takeDataset>("takeDataset")
      .method<&WasmCsvRead::release>("release");
  registerFunction<&requireColumn>("requireColumn");
  registerFunction<&publicColumns>("publicColumns");
  GuardedClass<WasmCsvScan>("CsvScan")
      .method<&WasmCsvScan::start>("start")
      .method<&WasmCsvScan::buffer>("buffer")
      .method<&WasmCsvScan::feed>("feed")
      .method<&WasmCsvScan::progress>("progress")
      .method<&WasmCsvScan::header>("header")
      .method<&WasmCsvScan::finish>("finish")
      .method<&WasmCsvScan::release>("release");
  GuardedClass<WasmCsvPreview>("CsvPreview")
      .method<&WasmCsvPreview::start>("start")
      .method<&WasmCsvPreview::pass>("pass")
      .method<&WasmCsvPreview::buffer>("buffer")
      .method<&WasmCsvPreview::feed>("feed")
      .method<&WasmCsvPreview::endPass>("endPass")
      .method<&WasmCsvPreview::progress>("progress")
      .method<&WasmCsvPreview::result>("preview")
      .method<&WasmCsvPreview::release>("release");
}
