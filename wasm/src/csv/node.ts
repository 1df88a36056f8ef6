// Node-only: a CSV file as a re-readable source (imported by the node entry only, so the
// browser entry never pulls in node:fs).
import { statSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { DpMarginError } from "../errors.js";
import type { CsvByteSource } from "./source.js";

/** Bytes per read. 1 MiB reads with two reused buffers (the next read in flight while the
 *  reader parses the current chunk) read a large table faster than Node's 64 KiB read stream,
 *  with a lower peak (no garbage per chunk); the numbers are in docs/reference/PERFORMANCE.md. */
const READ_CHUNK = 1 << 20;

/**
 * The file in chunks of at most READ_CHUNK bytes. Each chunk is a view of one of two buffers
 * that are reused: it is valid until the next chunk is requested (the CSV reader copies every
 * chunk into wasm memory before asking for the next one).
 */
async function* readChunks(path: string): AsyncGenerator<Uint8Array> {
  let handle: FileHandle | undefined;
  const fail = (error: unknown) => {
    const e = error as NodeJS.ErrnoException;
    return new DpMarginError("BAD_PARAMETER", `cannot read ${JSON.stringify(path)}: ${e.code ?? e.message}`, "source");
  };
  try {
    handle = await open(path, "r");
  } catch (error) {
    throw fail(error);
  }
  const file = handle;
  const buffers = [Buffer.allocUnsafe(READ_CHUNK), Buffer.allocUnsafe(READ_CHUNK)];
  const read = (i: number) => file.read(buffers[i], 0, READ_CHUNK, null);
  let pending: ReturnType<typeof read> | null = null;
  try {
    pending = read(0);
    for (let i = 0; ; i ^= 1) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await pending);
      } catch (error) {
        pending = null;
        throw fail(error);
      }
      pending = null;
      if (bytesRead === 0) return;
      // The other buffer was handed out before this one: the consumer is done with it.
      pending = read(i ^ 1);
      yield buffers[i].subarray(0, bytesRead);
    }
  } finally {
    // A read still in flight (the consumer stopped early) must end before the file closes.
    if (pending) await pending.catch(() => undefined);
    await file.close().catch(() => undefined);
  }
}

/**
 * A CSV file as a source for `dp.trainCsv`, `model.predictCsv`, `dp.readCsv`, `dp.summarizeCsv`
 * (Node). The file is streamed, once per pass the reader needs; it is never read whole into memory
 * (its size, from `stat`, lets a plain numeric table be read once). Its `open()` yields
 * views of two reused 1 MiB buffers: a chunk is valid until the next one is requested (copy it
 * to keep it).
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
