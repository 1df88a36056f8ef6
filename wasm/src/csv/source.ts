// Where CSV bytes come from. Every source can be opened more than once: the core's reader makes
// up to three passes (scan, count, fill; a plain numeric table of known size only the scan), so
// nothing the size of the file is ever held in JavaScript (bytes.ts streams them; the core
// decodes).
import { DpMarginError } from "../errors.js";

/** A re-readable stream of bytes or already-decoded text. */
export interface CsvByteSource {
  /** Open a fresh stream from the start of the data; called once per pass. */
  open(): AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;
  /** Total size in bytes, when known (progress reports; and it lets the core read a plain
   *  numeric table in one pass). Give the true size or none: the core reserves memory for a
   *  table of that many bytes (up to `maxBytes`), and a wrong size costs memory or a pass. */
  size?: number;
  /** A name for messages, e.g. the file path. */
  name?: string;
}

/**
 * CSV input: the text itself (small inputs), a `Blob`/`File` (browsers, workers, Node), or a
 * {@link CsvByteSource} (in Node, `csvFile(path)` makes one from a file path).
 */
export type CsvSource = string | Blob | CsvByteSource;

export function cancelledRead(): DpMarginError {
  return new DpMarginError("CANCELLED", "reading the CSV was cancelled (AbortSignal)");
}

function isBlob(value: unknown): value is Blob {
  return typeof Blob !== "undefined" && value instanceof Blob;
}

export function isCsvSource(value: unknown): value is CsvSource {
  if (typeof value === "string" || isBlob(value)) return true;
  return value !== null && typeof value === "object" && typeof (value as CsvByteSource).open === "function";
}

/** Total size in bytes (or characters for text), when known. */
export function sourceSize(source: CsvSource): number | null {
  if (typeof source === "string") return source.length;
  if (isBlob(source)) return source.size;
  const size = (source as CsvByteSource).size;
  return typeof size === "number" && Number.isFinite(size) ? size : null;
}
