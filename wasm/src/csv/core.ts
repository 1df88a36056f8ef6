// CSV → a core Dataset in wasm memory: pass 2 of the reader writes into heap views of the
// table the core allocated, so the data exist once, in wasm memory, and never in JavaScript.
import type { CoreDataset, CoreModule } from "../wasm/dpmargin_core.mjs";
import { unwrap } from "../module/status.js";
import type { CsvSource } from "./source.js";
import { readCsvInto, type TableSchema } from "./reader.js";
import { resolveCsvOptions, type CsvReadOptions } from "./columns.js";

/**
 * Read `source` into a new, validated core Dataset (raw values: the trainer or a model prepares
 * it in place). A multiclass label (`classes`) comes back as class codes (a JS copy), and for
 * training (`requireBothClasses`) also in the dataset (Dataset.codes: the core validates it when
 * training starts). The caller owns the dataset and must `dispose()` it; on error nothing is
 * left allocated.
 */
export async function readCsvToCore(core: CoreModule, source: CsvSource, options: CsvReadOptions):
  Promise<{ dataset: CoreDataset; table: TableSchema; codes: Int32Array | null }> {
  const requireBothClasses = resolveCsvOptions(options).requireBothClasses;
  const dataset = new core.Dataset();
  let codes: Int32Array | null = null;
  try {
    const table = await readCsvInto(source, options, (rows, columns, labelled, classes) => {
      // Training one-vs-rest needs room for each problem's ±1 labels (the core writes them).
      const { stride } = unwrap(dataset.allocate(rows, columns, labelled || (classes !== null && requireBothClasses)));
      codes = classes !== null ? new Int32Array(rows) : null;
      return {
        stride,
        features: () => unwrap(dataset.features()),
        labels: () => (labelled ? unwrap(dataset.labels()) : null),
        codes: () => codes,
      };
    });
    if (table.multiclass !== null && requireBothClasses) {
      unwrap(dataset.codes(table.multiclass.classes.length)).set(codes!);
    } else {
      unwrap(dataset.validate(table.label !== null && requireBothClasses));
    }
    return { dataset, table, codes };
  } catch (error) {
    dataset.release();
    dataset.delete();
    throw error;
  }
}
