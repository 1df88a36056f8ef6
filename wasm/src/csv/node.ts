// Node-only: a CSV file as a re-readable source (imported by the node entry only, so the
// browser entry never pulls in node:fs).
import { createReadStream, statSync } from "node:fs";
import { DpMarginError } from "../errors.js";
import type { CsvByteSource } from "./source.js";

/** Bytes per read (Node's default for files): per-chunk costs are negligible at this size,
 *  and larger reads only raise peak memory (see docs/DATA_PIPELINE.md). */
const READ_CHUNK = 1 << 16;

async function* readChunks(path: string): AsyncGenerator<Uint8Array> {
  const stream = createReadStream(path, { highWaterMark: READ_CHUNK });
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new DpMarginError("BAD_PARAMETER", `cannot read ${JSON.stringify(path)}: ${e.code ?? e.message}`, "source");
  } finally {
    stream.destroy();
  }
}

/**
 * A CSV file as a source for `dp.trainCsv`, `model.predictCsv`, `dp.readCsv`, `dp.summarizeCsv`
 * (Node). The file is streamed, twice; it is never read whole into memory.
 */
export function csvFile(path: string): CsvByteSource {
  if (typeof path !== "string" || path === "") {
    throw new DpMarginError("BAD_PARAMETER", `path must be a file path, but is ${JSON.stringify(path)}`, "path");
  }
  let size: number | undefined;
  try {
    size = statSync(path).size;
  } catch {
    size = undefined;  // reported, with its reason, when the file is opened
  }
  return { name: path, size, open: () => readChunks(path) };
}
