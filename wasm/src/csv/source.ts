// Where CSV text comes from, as a stream of decoded text chunks. Every source can be opened
// more than once: the reader makes two passes (validate and count, then write into wasm
// memory), so nothing the size of the file is ever held in JavaScript.
//
// Bytes are decoded here with one streaming TextDecoder per pass, never chunk by chunk:
// PapaParse's own streamers decode every chunk on its own and turn a multi-byte character
// split across a chunk boundary into U+FFFD (mholt/PapaParse#751, #908, #1132).
import { DpMarginError } from "../errors.js";

/** A re-readable stream of bytes (UTF-8) or already-decoded text. */
export interface CsvByteSource {
  /** Open a fresh stream from the start of the data; called once per pass. */
  open(): AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>;
  /** Total size in bytes, when known (progress reports only). */
  size?: number;
  /** A name for messages, e.g. the file path. */
  name?: string;
}

/**
 * CSV input: the text itself (small inputs), a `Blob`/`File` (browsers, workers, Node), or a
 * {@link CsvByteSource} (in Node, `csvFile(path)` makes one from a file path).
 */
export type CsvSource = string | Blob | CsvByteSource;

/** One decoded piece of text, with how many bytes (characters for text input) were consumed. */
export interface TextChunk {
  text: string;
  bytes: number;
}

/** Characters per chunk when the source is a string. */
const STRING_CHUNK = 1 << 16;

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

function openBytes(source: Blob | CsvByteSource): AsyncIterable<Uint8Array | string> {
  const opened = isBlob(source)
    ? source.stream()
    : (source as CsvByteSource).open();
  if (opened && typeof (opened as ReadableStream).getReader === "function") {
    return streamChunks(opened as ReadableStream<Uint8Array>);
  }
  if (opened && typeof (opened as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
    return opened as AsyncIterable<Uint8Array | string>;
  }
  throw new DpMarginError("BAD_PARAMETER",
    "source.open() must return an async iterable of Uint8Array/string or a ReadableStream", "source");
}

function readFailure(source: CsvSource, error: unknown): DpMarginError {
  if (error instanceof DpMarginError) return error;
  const name = typeof source === "object" && !isBlob(source) ? source.name : undefined;
  const what = name ? JSON.stringify(name) : "the CSV source";
  const reason = (error as { code?: string })?.code ?? (error as Error)?.message ?? String(error);
  return new DpMarginError("BAD_PARAMETER", `cannot read ${what}: ${reason}`, "source");
}

/** Length of the longest prefix of `buf` that does not end inside a UTF-8 sequence. */
function completeLength(buf: Uint8Array): number {
  for (let i = buf.length - 1; i >= Math.max(0, buf.length - 3); i--) {
    const b = buf[i];
    if ((b & 0xc0) === 0x80) continue;  // continuation byte: look further back
    if (b < 0xc0) return buf.length;  // ASCII (or a stray continuation, reported by the decoder)
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return buf.length - i < need ? i : buf.length;
  }
  return buf.length;
}

const exact = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

function notUtf8(byte: number): DpMarginError {
  return new DpMarginError("CSV_PARSE", `the file is not valid UTF-8 text (at byte ${byte}); save it as UTF-8`);
}

/** Decode whole UTF-8 characters; on bad bytes, name the first one's offset in the file. */
function decodeAt(buf: Uint8Array, offset: number): string {
  try {
    return exact.decode(buf);
  } catch {
    const text = lenient.decode(buf);
    const bad = text.indexOf("\uFFFD");
    throw notUtf8(offset + new TextEncoder().encode(text.slice(0, Math.max(0, bad))).length);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Decoded text of one pass over `source`. Strips a UTF-8 byte order mark, rejects UTF-16 and
 * invalid UTF-8 (CSV_PARSE naming the byte), and checks `signal` before every chunk
 * (CANCELLED). A character split across chunks is carried over whole, so where the source
 * cuts its chunks never changes the text or an error message.
 */
export async function* textChunks(source: CsvSource, signal?: AbortSignal): AsyncGenerator<TextChunk> {
  if (signal?.aborted) throw cancelledRead();
  if (typeof source === "string") {
    const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
    for (let at = 0; at < text.length; at += STRING_CHUNK) {
      if (signal?.aborted) throw cancelledRead();
      const end = Math.min(text.length, at + STRING_CHUNK);
      yield { text: text.slice(at, end), bytes: end + (text === source ? 0 : 1) };
    }
    return;
  }
  let carry: Uint8Array = new Uint8Array(0);
  let offset = 0;  // bytes of the source before `carry`
  let started = false;
  let textSource = false;
  // Bytes → text, holding back an incomplete last character; the first call also checks the
  // byte order mark, so it waits for 3 bytes (or the end).
  const take = (buf: Uint8Array, final: boolean): string | null => {
    if (!started) {
      if (buf.length < 3 && !final) {
        carry = buf;
        return null;
      }
      if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) {
        throw new DpMarginError("CSV_PARSE", "the file is UTF-16 text (it starts with a UTF-16 byte order mark); save it as UTF-8");
      }
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
        buf = buf.subarray(3);
        offset += 3;
      }
      started = true;
    }
    const end = final ? buf.length : completeLength(buf);
    const text = decodeAt(buf.subarray(0, end), offset);
    offset += end;
    carry = buf.slice(end);
    return text;
  };
  let iterator: AsyncIterator<Uint8Array | string> | null = null;
  try {
    iterator = openBytes(source)[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Uint8Array | string>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw readFailure(source, error);
      }
      if (signal?.aborted) throw cancelledRead();
      if (next.done) break;
      const piece = next.value;
      if (typeof piece === "string") {
        if (carry.length || (started && !textSource)) {
          throw new DpMarginError("BAD_PARAMETER", "source.open() must yield only bytes or only text", "source");
        }
        const text = !started && piece.charCodeAt(0) === 0xfeff ? piece.slice(1) : piece;
        started = textSource = true;
        offset += piece.length;
        if (text) yield { text, bytes: offset };
        continue;
      }
      if (textSource) throw new DpMarginError("BAD_PARAMETER", "source.open() must yield only bytes or only text", "source");
      const text = take(carry.length ? concat(carry, piece) : piece, false);
      if (text) yield { text, bytes: offset + carry.length };
    }
    iterator = null;
    if (carry.length || !started) {
      if (carry.length && completeLength(carry) < carry.length && started) throw notUtf8(offset + completeLength(carry));
      const text = take(carry, true);
      if (text) yield { text, bytes: offset };
    }
  } finally {
    // Early exit (an error in the caller, or a preview that has read enough): close the source.
    if (iterator?.return) {
      try {
        await iterator.return(undefined);
      } catch {
        // already failed or closed: nothing more to release
      }
    }
  }
}
