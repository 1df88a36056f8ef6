// Instantiates the WebAssembly module for a DpMargin, with the platform's way of starting
// shard workers (index.ts: Web Workers; node.ts: worker_threads). Not part of the public API.
import createDpMarginCore from "../wasm/dpmargin_core.mjs";
import { DpMargin } from "../api.js";
import { DpMarginError } from "../errors.js";
import type { ShardSpawner } from "../shards/protocol.js";

/** How to find the WebAssembly binary. */
export interface LoadOptions {
  /** Map the file name `dpmargin_core.wasm` to a URL. */
  locateFile?: (path: string, prefix: string) => string;
  /** The binary itself (skips fetching). */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

const ownBytes = (b: ArrayBuffer | Uint8Array): ArrayBuffer =>
  b instanceof ArrayBuffer ? b.slice(0) : (b.buffer as ArrayBuffer).slice(b.byteOffset, b.byteOffset + b.byteLength);

/** `load` with the platform's way of starting shard workers (`workers` ≥ 2). */
export async function loadWith(options: LoadOptions, spawn: ShardSpawner): Promise<DpMargin> {
  // Shard workers load the same binary: its bytes when given, else the URL locateFile gives,
  // else the glue's default (next to dpmargin_core.mjs).
  let wasmUrl: string | undefined;
  try {
    wasmUrl = options.locateFile?.("dpmargin_core.wasm", "");
  } catch {
    wasmUrl = undefined;
  }
  const init = {
    type: "init" as const,
    ...(options.wasmBinary ? { wasmBinary: ownBytes(options.wasmBinary) } : {}),
    ...(!options.wasmBinary && typeof wasmUrl === "string" ? { wasmUrl } : {}),
  };
  try {
    const core = await createDpMarginCore({
      ...(options.locateFile ? { locateFile: options.locateFile } : {}),
      ...(options.wasmBinary ? { wasmBinary: options.wasmBinary } : {}),
    });
    return new DpMargin(core, { spawn, init });
  } catch (error) {
    throw new DpMarginError("WASM_LOAD",
      `could not instantiate the dpmargin WebAssembly module: ${(error as Error)?.message ?? error}`);
  }
}
