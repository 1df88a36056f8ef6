// The bytes of a CSV source, chunk by chunk, for the core's reader (core/src/data/csv): every
// pass opens the source afresh, so nothing the size of the file is held in JavaScript. Text
// sources are encoded to UTF-8 here (the core reads UTF-8 or, when asked, Latin-1 bytes; it
// detects the byte order mark, UTF-16, spreadsheets and compressed files itself).
import { DpMarginError } from "../errors.js";
import { isCsvSource, type CsvByteSource, type CsvSource } from "./source.js";
import { cancelledRead } from "./source.js";

/** Characters per chunk when the source is a string. */
const STRING_CHUNK = 1 << 16;
const encoder = new TextEncoder();

function isBlob(value: unknown): value is Blob {
  return typeof Blob !== "undefined" && value instanceof Blob;
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  // getReader(), not `for await`: Safari's ReadableStream is not async-iterable.
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function readFailure(source: CsvSource, error: unknown): DpMarginError {
  if (error instanceof DpMarginError) return error;
  const name = typeof source === "object" && !isBlob(source) ? (source as CsvByteSource).name : undefined;
  const what = name ? JSON.stringify(name) : "the CSV source";
  const reason = (error as { code?: string })?.code ?? (error as Error)?.message ?? String(error);
  return new DpMarginError("BAD_PARAMETER", `cannot read ${what}: ${reason}`, "source");
}

/** A string in slices of at most STRING_CHUNK characters, never splitting a surrogate pair. */
function* stringSlices(text: string): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + STRING_CHUNK);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * One pass over `source` as bytes. Checks `signal` before every chunk (CANCELLED); a failing
 * source is BAD_PARAMETER naming it. Early exit closes the source.
 */
export async function* byteChunks(source: CsvSource, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  if (signal?.aborted) throw cancelledRead();
  if (typeof source === "string") {
    for (const slice of stringSlices(source)) {
      if (signal?.aborted) throw cancelledRead();
      yield encoder.encode(slice);
    }
    return;
  }
  if (!isCsvSource(source)) throw new DpMarginError("BAD_PARAMETER", "source must be CSV text, a Blob/File, or { open() }", "source");
  let opened: unknown;
  try {
    opened = isBlob(source) ? source.stream() : (source as CsvByteSource).open();
  } catch (error) {
    throw readFailure(source, error);
  }
  let iterable: AsyncIterable<Uint8Array | string>;
  if (opened && typeof (opened as ReadableStream).getReader === "function") {
    iterable = streamChunks(opened as ReadableStream<Uint8Array>);
  } else if (opened && typeof (opened as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
    iterable = opened as AsyncIterable<Uint8Array | string>;
  } else {
    throw new DpMarginError("BAD_PARAMETER",
      "source.open() must return an async iterable of Uint8Array/string or a ReadableStream", "source");
  }
  const iterator = iterable[Symbol.asyncIterator]();
  let finished = false;
  let kind: "bytes" | "text" | null = null;
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array | string>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw readFailure(source, error);
      }
      if (signal?.aborted) throw cancelledRead();
      if (next.done) {
        finished = true;
        return;
      }
      const piece = next.value;
      const pieceKind = typeof piece === "string" ? "text" : "bytes";
      if (kind !== null && kind !== pieceKind) {
        throw new DpMarginError("BAD_PARAMETER", "source.open() must yield only bytes or only text", "source");
      }
      kind = pieceKind;
      if (typeof piece === "string") {
        for (const slice of stringSlices(piece)) yield encoder.encode(slice);
      } else if (piece instanceof Uint8Array) {
        yield piece;
      } else {
        throw new DpMarginError("BAD_PARAMETER", "source.open() must yield Uint8Array or string chunks", "source");
      }
    }
  } finally {
    if (!finished && iterator.return) {
      try {
        await iterator.return(undefined);
      } catch {
        // already failed or closed
      }
    }
  }
}
