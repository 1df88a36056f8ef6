/** Stable error codes of {@link DpMarginError} (SPEC §5.1). */
export type DpMarginErrorCode =
  | "BAD_PARAMETER"
  | "CSV_PARSE"
  | "RAGGED_ROW"
  | "NON_NUMERIC"
  | "NON_FINITE"
  | "MISSING_VALUE"
  | "LABEL_NOT_FOUND"
  | "ONE_CLASS"
  | "BAD_LABEL"
  | "BAD_MODEL"
  | "BUDGET_EXCEEDED"
  | "OUT_OF_MEMORY"
  | "CANCELLED"
  | "WASM_LOAD"
  | "INTERNAL";

/**
 * The only error type the package throws. `code` is stable and machine-readable; `message`
 * names the offending parameter (and, for data errors, the row and column).
 */
export class DpMarginError extends Error {
  readonly code: DpMarginErrorCode;
  /** The parameter at fault, when the error is about one parameter. */
  readonly parameter?: string;

  constructor(code: DpMarginErrorCode, message: string, parameter?: string) {
    super(message);
    this.name = "DpMarginError";
    this.code = code;
    if (parameter) this.parameter = parameter;
  }
}

export function badParameter(parameter: string, requirement: string, value: unknown): DpMarginError {
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  return new DpMarginError(
    "BAD_PARAMETER",
    `${parameter} must be ${requirement}, but is ${shown}`,
    parameter,
  );
}
