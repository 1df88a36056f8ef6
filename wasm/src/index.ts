/**
 * dpmargin — browser and worker entry (also what bundlers such as Vite resolve).
 * The Emscripten glue finds `dpmargin_core.wasm` next to itself through
 * `new URL(..., import.meta.url)`, which Vite and other modern bundlers understand. With other
 * bundlers import the wasm URL yourself (Vite: `import wasmUrl from "dpmargin/wasm?url"`) and
 * pass `load({ locateFile: () => wasmUrl })`, or pass the bytes as `wasmBinary`.
 */
import type { DpMargin } from "./api.js";
import { loadWith, type LoadOptions } from "./loader.js";
import { spawnWebShard } from "./shard_web.js";

export { DpMargin } from "./api.js";
export type { Accounting } from "./api.js";
export { DpMarginError } from "./errors.js";
export type { DpMarginErrorCode } from "./errors.js";
export type * from "./types.js";
export { Model } from "./model.js";
export type { MarginProfile, ProfileOptions, ProfilePoint, ProfileProgress } from "./profile.js";
export { DEFAULT_RANGE_SHARE, DEFAULT_MAX_ITERATIONS, DEFAULT_EXPECTED_RUNS, DEFAULT_PRUNE_RATIO } from "./options.js";
export type { ModelFile, Predictions } from "./model.js";
export type { TrainOptions, TrainProgress, TrainReport, TrainResult, CandidateReport, CsvTrainResult } from "./train.js";
export type { PredictCsvOptions, CsvPredictions } from "./model.js";
export { readCsvInto, readCsv, previewCsv } from "./csv.js";
export type { TableSchema, CsvTarget, CsvAllocate, CsvTable, CsvPreview } from "./csv.js";
export { MAX_TABLE_BYTES } from "./csv_columns.js";
export type { CsvReadOptions, CsvProgress } from "./csv_columns.js";
export type { CsvSource, CsvByteSource } from "./csv_source.js";
export type { Delimiter, Newline } from "./csv_rows.js";
export type { TrainingData, PreprocessingOptions, RowNormalization } from "./data.js";

export type { LoadOptions } from "./loader.js";

/** Instantiate the WebAssembly module. Each call gives an independent instance. */
export function load(options: LoadOptions = {}): Promise<DpMargin> {
  return loadWith(options, spawnWebShard);
}
