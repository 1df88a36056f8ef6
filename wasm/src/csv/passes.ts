// Driving the core's CSV readers (bindings/csv.cpp): the source's bytes are copied into a
// buffer in wasm memory, chunk by chunk, once per pass; the core decides what happens between
// the passes (the schema, category discovery, the encoding) and asks for the next one.
import type { CoreByteSink, CorePassReader } from "../wasm/dpmargin_core.mjs";
import { unwrap } from "../module/status.js";
import { byteChunks } from "./bytes.js";
import { sourceSize, type CsvSource } from "./source.js";

/** Reading progress, per pass. */
export interface CsvProgress {
  /** "scan" reads the shape and cell kinds (and, for a plain numeric table of known size, the
   *  table itself: no other pass follows), "count" counts the categories to discover, "fill"
   *  reads the file again to write the table into memory. */
  pass: "scan" | "count" | "fill";
  /** Bytes read so far in this pass. */
  bytes: number;
  /** Size of the source in bytes, when known (for text: characters). */
  totalBytes: number | null;
  /** Data rows read so far in this pass. */
  rows: number;
}

/** Bytes copied into wasm memory per call. */
const MAX_PIECE = 1 << 20;

/** Feed one pass of `source` into `sink`. */
export async function feedPass(sink: CoreByteSink, source: CsvSource, pass: CsvProgress["pass"],
  signal: AbortSignal | undefined, onProgress: ((p: CsvProgress) => void) | undefined): Promise<void> {
  const total = sourceSize(source);
  for await (const chunk of byteChunks(source, signal)) {
    for (let at = 0; at < chunk.length; at += MAX_PIECE) {
      const piece = chunk.subarray(at, Math.min(chunk.length, at + MAX_PIECE));
      unwrap(sink.buffer(piece.length)).set(piece);  // a fresh view: memory may have grown
      unwrap(sink.feed(piece.length));
    }
    if (onProgress) {
      const p = unwrap(sink.progress());
      onProgress({ pass, bytes: p.bytes, totalBytes: total, rows: p.rows });
    }
  }
}

/** Every pass the reader asks for, until it is done; `beforePass` is called before each. */
export async function runPasses(reader: CorePassReader, source: CsvSource, signal: AbortSignal | undefined,
  onProgress: ((p: CsvProgress) => void) | undefined, beforePass?: (pass: CsvProgress["pass"]) => void): Promise<void> {
  for (;;) {
    const pass = unwrap(reader.pass());
    if (pass === "done") return;
    beforePass?.(pass as CsvProgress["pass"]);
    await feedPass(reader, source, pass as CsvProgress["pass"], signal, onProgress);
    unwrap(reader.endPass());
  }
}
