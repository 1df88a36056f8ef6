// `dpmargin train`: what is checked before TRAIN.csv is read — so before any noise is drawn and
// before the ledger records anything (issue 29 item 3). A run refused here spends nothing and
// leaves every file as it was: the model's file and the ledger can be written, the ledger
// parses, the label is in the header, and the --test file holds every column a model of
// TRAIN.csv may need (by the core's public rule, from the two headers: header names are public).
// Then, where a run that has started fails, it keeps what it paid for: keepModel writes the
// model somewhere and says where.
import { open, unlink } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, extname, join } from "node:path";
import { outExists } from "./flags.js";
import { csvFile, DpMarginError, type CsvHeader, type CsvReadOptions, type DpMargin } from "../node.js";

/** Where the model of a run goes: --out, or a file next to TRAIN.csv (never an existing one). */
export interface ModelTarget {
  path: string;
  /** --out named it (else the command chose it). */
  named: boolean;
  /** --force: an existing --out file is overwritten. */
  force: boolean;
  /** TRAIN.csv, for the fallbacks of keepModel. */
  input: string;
}

const reason = (error: unknown) => (error as NodeJS.ErrnoException)?.code ?? (error as Error)?.message ?? String(error);

// Can `path` be written? An existing file is opened for writing (not truncated); a new one is
// created and removed again.
async function probe(path: string, exists: boolean): Promise<void> {
  const handle = await open(path, exists ? "r+" : "wx");
  await handle.close();
  if (!exists) await unlink(path);
}

// TRAIN.csv → TRAIN.model.json next to it, or TRAIN.model-2.json, -3, … when taken.
function defaultNames(input: string): string[] {
  const stem = join(dirname(input), basename(input, extname(input)));
  return [`${stem}.model.json`, ...Array.from({ length: 998 }, (_, k) => `${stem}.model-${k + 2}.json`)];
}

/** The model's file, checked writable: --out (refused when it exists without --force), or the
 *  first free default name next to TRAIN.csv. */
export async function modelTarget(input: string, out: string | undefined, force: boolean): Promise<ModelTarget> {
  if (out !== undefined) {
    const exists = existsSync(out);
    if (exists && !force) throw outExists(out);
    try {
      await probe(out, exists);
    } catch (error) {
      throw new DpMarginError("BAD_PARAMETER", `cannot write ${JSON.stringify(out)}: ${reason(error)}`, "out");
    }
    return { path: out, named: true, force, input };
  }
  // The first free name that can be created: a name another process takes between the check
  // and the probe (two runs on one file at once) is skipped, not an error.
  for (const path of defaultNames(input)) {
    if (existsSync(path)) continue;
    try {
      await probe(path, false);
      return { path, named: false, force: false, input };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new DpMarginError("BAD_PARAMETER",
        `the model would be written next to ${input}, to ${JSON.stringify(path)}, which cannot be written (${reason(error)}): name its file with --out FILE`, "out");
    }
  }
  throw new DpMarginError("BAD_PARAMETER", `no free name for the model next to ${input}: name its file with --out FILE`, "out");
}

/**
 * Writes the model of a run that has spent its budget: to its target or, when that fails (a
 * disk, a directory gone since the check), to the first free default name next to TRAIN.csv,
 * then to the temporary directory. Returns where it went and why not to the target.
 */
export async function keepModel(text: string, target: ModelTarget): Promise<{ path: string; failed?: string }> {
  const tries = [
    { path: target.path, flag: target.force ? "w" : "wx" },
    ...defaultNames(target.input).slice(0, 20).map((path) => ({ path, flag: "wx" })),
    { path: join(tmpdir(), `${basename(target.input, extname(target.input))}.${process.pid}.model.json`), flag: "wx" },
  ];
  let failed: string | undefined;
  for (const t of tries) {
    if (t.path !== target.path && existsSync(t.path)) continue;
    try {
      const handle = await open(t.path, t.flag);
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      return failed === undefined ? { path: t.path } : { path: t.path, failed };
    } catch (error) {
      const taken = (error as NodeJS.ErrnoException).code === "EEXIST";
      if (taken && !target.named) continue;  // a default name another run took meanwhile: the next one
      if (t.path === target.path && taken) {
        failed ??= `${JSON.stringify(t.path)} appeared since the run started`;
      } else {
        failed ??= `cannot write ${JSON.stringify(t.path)}: ${reason(error)}`;
      }
    }
  }
  throw new DpMarginError("INTERNAL", `the model could not be written anywhere (${failed})`);
}

/** The --ledger file can be replaced (written whole to FILE.PID.tmp, then renamed over it). */
export async function probeLedger(file: string): Promise<void> {
  try {
    const exists = existsSync(file);
    if (exists) await probe(file, true);
    await probe(`${file}.${process.pid}.tmp`, false);
  } catch (error) {
    throw new DpMarginError("BAD_PARAMETER", `cannot write the ledger ${JSON.stringify(file)}: ${reason(error)}`, "ledger");
  }
}

// The dialect options of a CSV read (what a test file is read with, besides the model's columns).
export const DIALECT = ["delimiter", "decimal", "encoding", "missingTokens"] as const;

/**
 * TRAIN.csv's header: its label (named — LABEL_NOT_FOUND when absent — or proposed by its name)
 * and the columns a model may read. With --test, that file's header must hold all of them and
 * the label, or the run is refused (the cells of either file are not read here).
 */
export async function checkHeaders(dp: DpMargin, train: string, csv: CsvReadOptions, test: string | undefined,
  signal?: AbortSignal): Promise<CsvHeader> {
  const head = await dp.csvHeader(csvFile(train), { ...csv, signal } as Parameters<DpMargin["csvHeader"]>[1]);
  if (test === undefined || head.label === null) return head;  // no label: the scan says so, before any noise
  const dialect = Object.fromEntries(DIALECT.filter((k) => csv[k] !== undefined).map((k) => [k, csv[k]]));
  let columns: string[];
  try {
    columns = (await dp.csvHeader(csvFile(test), { ...dialect, signal })).columns;
  } catch (error) {
    if (error instanceof DpMarginError && error.code !== "INTERNAL" && error.code !== "CANCELLED") {
      throw new DpMarginError(error.code, `--test ${test}: ${error.message}`, "test");
    }
    throw error;
  }
  // The core's message names every column of the test file and the names it resembles.
  const refuse = (name: string, parameter: string, what: string) => {
    try {
      dp.findColumn(columns, name, parameter, what);
    } catch (error) {
      if (!(error instanceof DpMarginError)) throw error;
      throw new DpMarginError(error.code, `${error.message} (nothing was spent)`, "test");
    }
  };
  if (!columns.includes(head.label)) refuse(head.label, "label", `--test ${test}: the label column`);
  const missing = head.features.filter((c) => !columns.includes(c));
  if (missing.length > 0) {
    const names = missing.slice(0, 10).map((c) => JSON.stringify(c)).join(", ") + (missing.length > 10 ? ", …" : "");
    refuse(missing[0], "test", `--test ${test} lacks ${missing.length === 1 ? "a column" : `${missing.length} columns (${names})`}`
      + ` a model of ${train} may read (every column but the label, identifiers and those left out by --ignore,`
      + ` --features or --schema): column`);
  }
  return head;
}
