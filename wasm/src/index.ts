/**
 * dpmargin — browser and worker entry (also what bundlers such as Vite resolve).
 * The Emscripten glue finds `dpmargin_core.wasm` next to itself through
 * `new URL(..., import.meta.url)`, which Vite and other modern bundlers understand. With other
 * bundlers import the wasm URL yourself (Vite: `import wasmUrl from "dpmargin/wasm?url"`) and
 * pass `load({ locateFile: () => wasmUrl })`, or pass the bytes as `wasmBinary`.
 */
import { loadWith, type LoadOptions } from "./module/loader.js";
import { spawnWebShard } from "./shards/spawn_web.js";
import { DpMargin as DpMarginClass } from "./api.js";
import { DpMarginError as DpMarginErrorClass } from "./errors.js";
import { Model as ModelClass } from "./model/model.js";
import { multiclassPredictionsCsv as multiclassPredictionsCsvFn } from "./model/multiclass.js";
import { predictionsCsv as predictionsCsvFn, neutralizeFormula as neutralizeFormulaFn } from "./csv/predictions.js";
import { SEEDED_WARNING as SEEDED, LOCAL_NOTE as LOCAL } from "./train/report.js";
import { epsilonMeaning as epsilonMeaningFn, deltaWarning as deltaWarningFn } from "./explain.js";
import { evaluate as evaluateFn, rocAuc as rocAucFn, rocCurve as rocCurveFn } from "./metrics/metrics.js";

export { DpMargin } from "./api.js";
export type { Accounting } from "./api.js";
export { DpMarginError } from "./errors.js";
export type { DpMarginErrorCode } from "./errors.js";
export type * from "./types.js";
export { LOCAL_NOTE } from "./train/report.js";
export { Model } from "./model/model.js";
export { PrivacyLedger, ledgerRun } from "./ledger/ledger.js";
// What a released record may hold (docs/reference/PRIVACY.md): apps that publish a run's report or model
// check what they assemble against the same list.
export { checkReleased, releasedPaths } from "./release.js";
export type { LedgerFile, LedgerRun, LedgerTotal } from "./ledger/ledger.js";
export type {
  ModelFile, ModelLabel, ModelPreprocessing, Predictions, PredictCsvOptions, CsvPredictions, AnyModelFile, PredictionsOf,
  CsvPredictionsOf, TrainingPredictionsOf,
} from "./model/model.js";
export type {
  MulticlassModelFile, MulticlassPredictions, MulticlassCsvPredictions, ClassSelection,
} from "./model/multiclass.js";
export { multiclassPredictionsCsv } from "./model/multiclass.js";
export type { MarginProfile, ProfileAdvice, ProfileOptions, ProfilePoint, ProfileProgress } from "./profile/profile.js";
export type { TrainOptions, TrainResult, CsvTrainResult } from "./train/train.js";
export type { TrainingData } from "./train/data.js";
export { SEEDED_WARNING } from "./train/report.js";
export type { CsvTable } from "./api.js";
export type { TableInfo } from "./csv/table.js";
export type { CsvSummary, ColumnSummary, CellSample, SummaryOptions } from "./csv/summary.js";
export type { CsvHeader } from "./csv/header.js";
export type { CsvPreview, PreviewColumn, PreviewError, PreviewOptions, SchemaDecision } from "./csv/preview.js";
export { predictionsCsv, neutralizeFormula } from "./csv/predictions.js";
export type { PredictionsCsvExtras } from "./csv/predictions.js";
export type { CsvReadOptions, SchemaFile, SchemaColumn } from "./csv/options.js";
export type { CsvProgress } from "./csv/passes.js";
export type { CsvSource, CsvByteSource } from "./csv/source.js";
export type { LoadOptions } from "./module/loader.js";

export {
  epsilonMeaning, deltaWarning, MEANINGFUL_EPSILON, formatNumber, positiveRule, positiveRuleText, majorityFlag, oneClassWarning, IMBALANCED_NOTE,
} from "./explain.js";
export type { PositiveRule } from "./explain.js";
// Yardsticks on labelled rows (accuracy, balanced accuracy, majority rate, F1, ROC AUC and
// curve): local, NOT private.
export { evaluate, rocAuc, rocCurve, ROC_POINTS, IMBALANCED, isImbalanced, noBetterThanMajority } from "./metrics/metrics.js";
export type { Evaluation, EvaluateOptions, RocCurve } from "./metrics/metrics.js";

/** Instantiate the WebAssembly module. Each call gives an independent instance. */
export function load(options: LoadOptions = {}): Promise<DpMarginClass> {
  return loadWith(options, spawnWebShard);
}

/** The package's values in one object, for `import dp from "dpmargin"` (`dp.load()`, …); the
 *  named exports are the same values. */
const dpmargin = {
  load, DpMargin: DpMarginClass, DpMarginError: DpMarginErrorClass, Model: ModelClass, predictionsCsv: predictionsCsvFn,
  multiclassPredictionsCsv: multiclassPredictionsCsvFn, neutralizeFormula: neutralizeFormulaFn,
  SEEDED_WARNING: SEEDED, LOCAL_NOTE: LOCAL, epsilonMeaning: epsilonMeaningFn, deltaWarning: deltaWarningFn,
  evaluate: evaluateFn, rocAuc: rocAucFn, rocCurve: rocCurveFn,
};
export default dpmargin;
