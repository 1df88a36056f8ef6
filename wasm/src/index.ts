/**
 * dpmargin — browser and worker entry (also what bundlers such as Vite resolve).
 * The Emscripten glue finds `dpmargin_core.wasm` next to itself through
 * `new URL(..., import.meta.url)`, which Vite and other modern bundlers understand. With other
 * bundlers import the wasm URL yourself (Vite: `import wasmUrl from "dpmargin/wasm?url"`) and
 * pass `load({ locateFile: () => wasmUrl })`, or pass the bytes as `wasmBinary`.
 */
import type { DpMargin } from "./api.js";
import { loadWith, type LoadOptions } from "./module/loader.js";
import { spawnWebShard } from "./shards/spawn_web.js";

export { DpMargin } from "./api.js";
export type { Accounting } from "./api.js";
export { DpMarginError } from "./errors.js";
export type { DpMarginErrorCode } from "./errors.js";
export type * from "./types.js";
export { LOCAL_NOTE } from "./train/report.js";
export { Model } from "./model/model.js";
export type {
  ModelFile, ModelLabel, ModelPreprocessing, Predictions, PredictCsvOptions, CsvPredictions, AnyModelFile, PredictionsOf,
  CsvPredictionsOf,
} from "./model/model.js";
export type {
  MulticlassModelFile, MulticlassPredictions, MulticlassCsvPredictions, ClassSelection,
} from "./model/multiclass.js";
export { multiclassPredictionsCsv } from "./model/multiclass.js";
export type { MarginProfile, ProfileOptions, ProfilePoint, ProfileProgress } from "./profile/profile.js";
export type { TrainOptions, TrainResult, CsvTrainResult } from "./train/train.js";
export type { TrainingData } from "./train/data.js";
export { SEEDED_WARNING } from "./train/report.js";
export type { CsvTable } from "./api.js";
export type { TableInfo } from "./csv/table.js";
export type { CsvSummary, ColumnSummary, CellSample, SummaryOptions } from "./csv/summary.js";
export { predictionsCsv, neutralizeFormula } from "./csv/predictions.js";
export type { PredictionsCsvExtras } from "./csv/predictions.js";
export type { CsvReadOptions, SchemaFile, SchemaColumn } from "./csv/options.js";
export type { CsvProgress } from "./csv/passes.js";
export type { CsvSource, CsvByteSource } from "./csv/source.js";
export type { LoadOptions } from "./module/loader.js";

/** Instantiate the WebAssembly module. Each call gives an independent instance. */
export function load(options: LoadOptions = {}): Promise<DpMargin> {
  return loadWith(options, spawnWebShard);
}
