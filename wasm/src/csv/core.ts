// CSV → a core Dataset in wasm memory: pass 2 of the reader writes into heap views of the
// table the core allocated, so the data exist once, in wasm memory, and never in JavaScript.
import type { CoreDataset, CoreModule } from "../wasm/dpmargin_core.mjs";
import { unwrap } from "../module/status.js";
import type { CsvSource } from "./source.js";
import { readCsvInto, type TableSchema } from "./reader.js";
import { resolveCsvOptions, type CsvReadOptions } from "./columns.js";

/**
 * Read `source` into a new, validated core Dataset (raw values: the trainer or a model prepares
 * it in place). The caller owns the dataset and must `dispose()` it; on error nothing is left
 * allocated.
 */
export async function readCsvToCore(core: CoreModule, source: CsvSource, options: CsvReadOptions):
  Promise<{ dataset: CoreDataset; table: TableSchema }> {
  const requireBothClasses = resolveCsvOptions(options).requireBothClasses;
  const dataset = new core.Dataset();
  try {
    const table = await readCsvInto(source, options, (rows, columns, labelled) => {
      const { stride } = unwrap(dataset.allocate(rows, columns, labelled));
      return {
        stride,
        features: () => unwrap(dataset.features()),
        labels: () => (labelled ? unwrap(dataset.labels()) : null),
      };
    });
    unwrap(dataset.validate(table.label !== null && requireBothClasses));
    return { dataset, table };
  } catch (error) {
    dataset.release();
    dataset.delete();
    throw error;
  }
}
