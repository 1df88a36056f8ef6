import type { Status } from "../wasm/dpmargin_core.mjs";
import { DpMarginError, type DpMarginErrorCode } from "../errors.js";

/** Turn a core status into a value or a thrown DpMarginError. */
export function unwrap<T>(status: Status<T>): T {
  if (status.ok) return status.value;
  throw new DpMarginError(status.code as DpMarginErrorCode, status.message,
    status.parameter || undefined);
}

/** Release and delete an Embind object, whatever state it is in. */
export function dispose(object: { release(): unknown; delete(): void } | null | undefined): void {
  if (!object) return;
  object.release();
  object.delete();
}
