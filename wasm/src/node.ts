/**
 * dpmargin — Node entry. Reads `dpmargin_core.wasm` from the package and passes the bytes
 * (Node 20's global fetch cannot load a file path, and Emscripten 3.1.6 would try it).
 */
import { readFile } from "node:fs/promises";
import { loadWith, type LoadOptions } from "./module/loader.js";
import { spawnNodeShard } from "./shards/spawn_node.js";
import type { DpMargin } from "./api.js";

import web from "./index.js";
import { csvFile } from "./csv/node.js";

export * from "./index.js";
export { csvFile };

const wasmUrl = new URL("./wasm/dpmargin_core.wasm", import.meta.url);

/** Instantiate the WebAssembly module (Node): the binary is read from the package. */
export async function load(options: LoadOptions = {}): Promise<DpMargin> {
  if (options.wasmBinary || options.locateFile) return loadWith(options, spawnNodeShard);
  return loadWith({ wasmBinary: await readFile(wasmUrl) }, spawnNodeShard);
}

/** `import dp from "dpmargin"` in Node: the package's values with Node's `load` and `csvFile`. */
const dpmargin = { ...web, load, csvFile };
export default dpmargin;
