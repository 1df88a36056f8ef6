// The header of a CSV, read alone (the bytes up to the end of the header row), and the columns a
// model trained on the file may read by the core's public rules (data::publicColumns): what a
// caller can check before any data are read — e.g. that a test file holds every column a model
// of the training file may need (`dpmargin train --test`). Header names are public.
import type { CoreModule } from "../wasm/dpmargin_core.mjs";
import { badParameter } from "../errors.js";
import { dispose, unwrap } from "../module/status.js";
import { cancelled } from "../train/chunked.js";
import { byteChunks } from "./bytes.js";
import { isCsvSource, type CsvSource } from "./source.js";
import { splitCsvOptions, type CsvReadOptions } from "./options.js";

/** What `dp.csvHeader` returns. */
export interface CsvHeader {
  /** The file's column names (trimmed), in order. */
  columns: string[];
  /** The label column — named (`label`; LABEL_NOT_FOUND when the header lacks it) or proposed by
   *  its header name — or null when none is named or proposed. */
  label: string | null;
  /** The columns a model trained with these options may read, in file order: every column but
   *  the label, those declared out (`ignore`, not in `features`, a schema's kind "ignore") and,
   *  without `features`, identifier-like names. Training may leave out more once it has read
   *  the cells (a column without values), never fewer. */
  features: string[];
}

/** Bytes fed per call: small, so that little more than the header is read (the header is known
 *  once the core's dialect detection has its sample: 41 lines or 64 KiB, docs/reference/CSV_FORMAT.md). */
const MAX_PIECE = 1 << 12;

export async function csvHeader(core: CoreModule, source: CsvSource,
  options: Pick<CsvReadOptions, "label" | "features" | "ignore" | "schema" | "delimiter" | "decimal" | "encoding"
    | "missingTokens" | "signal"> & Record<string, unknown> = {}): Promise<CsvHeader> {
  if (!isCsvSource(source)) throw badParameter("source", "CSV text, a Blob/File, or { open() }", source);
  const split = splitCsvOptions(options);
  if (split.signal?.aborted) throw cancelled("reading the CSV");
  const scan = new core.CsvScan();
  try {
    unwrap(scan.start(split.core, 0));
    let header: string[] | null = null;
    read: for await (const chunk of byteChunks(source, split.signal)) {
      for (let at = 0; at < chunk.length; at += MAX_PIECE) {
        const piece = chunk.subarray(at, Math.min(chunk.length, at + MAX_PIECE));
        unwrap(scan.buffer(piece.length)).set(piece);
        unwrap(scan.feed(piece.length));
        header = unwrap(scan.header());
        if (header !== null) break read;  // the rest of the file is not read
      }
    }
    // A file that ends within its header row: the scan's own verdict (an empty file, a header
    // without rows) or its header.
    header ??= (unwrap(scan.finish(0)) as { columns: { name: string }[] }).columns.map((c) => c.name);
    const found = unwrap(core.publicColumns(header, split.core));
    return { columns: header, label: found.label, features: found.features };
  } finally {
    dispose(scan);
  }
}
