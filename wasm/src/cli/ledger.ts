// `dpmargin train --ledger FILE [--ledger-cap EPSILON,DELTA]`: the privacy ledger of a dataset
// in a file (the composition and the cap are the core's, through the package's PrivacyLedger).
import { readFile, rename, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { DpMarginError, type DpMargin, type PrivacyLedger } from "../node.js";
import { UsageError } from "./flags.js";

// The --ledger file: read (and kept accumulating) or created, with --ledger-cap EPSILON,DELTA.
export async function openLedger(dp: DpMargin, file: string | undefined, cap: string | undefined): Promise<PrivacyLedger | undefined> {
  if (file === undefined) {
    if (cap !== undefined) throw new UsageError("--ledger-cap needs --ledger FILE");
    return undefined;
  }
  if (existsSync(file)) {
    if (cap !== undefined) throw new UsageError(`--ledger-cap applies to a new ledger; ${file} exists (its cap: ${JSON.stringify(JSON.parse(await readFile(file, "utf8")).cap ?? null)})`);
    try {
      return dp.ledgerFromJSON(await readFile(file, "utf8"));
    } catch (error) {
      if (error instanceof DpMarginError) throw new DpMarginError(error.code, `--ledger ${file}: ${error.message}`, "ledger");
      throw error;
    }
  }
  if (cap === undefined) return dp.ledger();
  const parts = cap.split(",").map((x) => Number(x.trim()));
  if (parts.length !== 2 || !parts.every(Number.isFinite)) {
    throw new DpMarginError("BAD_PARAMETER", `--ledger-cap must be EPSILON,DELTA (e.g. 3,1e-5), but is ${JSON.stringify(cap)}`, "ledger-cap");
  }
  return dp.ledger({ cap: { epsilon: parts[0], delta: parts[1] } });
}

// Written whole to a temporary file, then renamed over the old one (never half a ledger).
export async function writeLedger(file: string, ledger: PrivacyLedger): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(ledger.toJSON(), null, 2) + "\n");
  await rename(temporary, file);
}
