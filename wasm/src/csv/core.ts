// CSV → a core Dataset in wasm memory: pass 2 of the reader writes into heap views of the
// table the core allocated, so the data exist once, in wasm memory, and never in JavaScript.
import type { CoreDataset, CoreModule } from "./wasm/dpmargin_core.mjs";
import { unwrap } from "./status.js";
import { finishCoreDataset, type ResolvedPreprocessing } from "./data.js";
import type { CsvSource } from "./csv_source.js";
import { readCsvInto, type TableSchema } from "./csv.js";
import { resolveCsvOptions, type CsvReadOptions } from "./csv_columns.js";

/**
 * Read `source` into a new, validated core Dataset (preprocessing `pre`, applied later in place
 * by the trainer or by prediction). The caller owns the
 * dataset and must call `.release()` and `.delete()`; on error nothing is left allocated.
 */
export async function readCsvToCore(core: CoreModule, source: CsvSource, options: CsvReadOptions,
  pre: ResolvedPreprocessing): Promise<{ dataset: CoreDataset; table: TableSchema }> {
  const requireBothClasses = resolveCsvOptions(options).requireBothClasses;
  const dataset = new core.Dataset();
  try {
    const table = await readCsvInto(source, options, (rows, columns, labelled) => {
      const width = unwrap(dataset.allocate(rows, columns, pre.intercept, pre.rowNormalization,
        pre.normBound, labelled));
      return {
        stride: width,
        features: () => dataset.features(),
        labels: () => (labelled ? dataset.labels() : null),
      };
    });
    finishCoreDataset(dataset, pre, table.label !== null && requireBothClasses);
    return { dataset, table };
  } catch (error) {
    dataset.release();
    dataset.delete();
    throw error;
  }
}
