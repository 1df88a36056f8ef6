// The wasm module lives in this worker so the page stays responsive. Requests are
// {id, method, args}; replies are {id, ok: true, value} or {id, ok: false, error: {code, message,
// parameter}} — a DpMarginError never escapes as an uncaught worker error.
import { load, DpMarginError, type DpMargin } from "dpmargin";

let instance: Promise<DpMargin> | null = null;
const module = () => (instance ??= load());

type Request = { id: number; method: "account"; args: [unknown] };

self.onmessage = async (event: MessageEvent<Request>) => {
  const { id, method, args } = event.data;
  try {
    const dp = await module();
    if (method !== "account") throw new DpMarginError("BAD_PARAMETER", `unknown method ${method}`);
    const value = dp.account(args[0] as Parameters<DpMargin["account"]>[0]);
    self.postMessage({ id, ok: true, value });
  } catch (error) {
    const e = error instanceof DpMarginError
      ? { code: error.code, message: error.message, parameter: error.parameter }
      : { code: "INTERNAL", message: String((error as Error)?.message ?? error) };
    if (e.code === "WASM_LOAD") instance = null;  // allow a retry
    self.postMessage({ id, ok: false, error: e });
  }
};
