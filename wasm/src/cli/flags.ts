// The command line's flags: parsing (node:util parseArgs, strict), the run options and CSV
// options from the core's option table (`dp.options`: the flag is the name in kebab case), the
// few flags the commands parse themselves, and the mapping of an API parameter back to the flag
// the user typed (so an error from the core names the flag).
import { parseArgs } from "node:util";
import { readFile } from "node:fs/promises";
import { kebab, type Flags } from "./help.js";
import { DpMarginError, type DpMargin, type CsvReadOptions, type OptionInfo } from "../node.js";

/** A mistake in the command line itself (exit 2, pointing at the command's --help). */
export class UsageError extends Error {}

// API parameter → the flag the user typed, so errors from the core name the flag. Every option
// of the core's table (run options and CSV options) has its name in kebab case; a schema
// field ("schema.columns[2].kind", "columns.age.missing") names --schema.
export const flagOf = (parameter: string) => {
  const head = parameter.split(/[.[]/)[0];
  return head === "columns" ? "--schema" : head === "maxRemoved" ? "--max-removed"
    : head === "cap" ? "--ledger-cap" : head === "entries" ? "--ledger" : `--${kebab(head)}`;
};

// Flags of the command being run: an error names a flag only if the user could have typed it.
let acceptedFlags = new Set<string>();
/** The flag the user could have typed for an API parameter, or undefined. */
export function typedFlag(parameter: string | undefined): string | undefined {
  const mapped = parameter ? flagOf(parameter) : undefined;
  return mapped && acceptedFlags.has(mapped) ? mapped
    : mapped && acceptedFlags.has(mapped.replace(/^--/, "--no-")) ? mapped.replace(/^--/, "--no-") : undefined;
}

export function numberFlag(values: Record<string, unknown>, flag: string, param: string,
  required: boolean): number | undefined {
  const raw = values[flag];
  if (raw === undefined) {
    if (required) throw new DpMarginError("BAD_PARAMETER", `${param} is required (--${flag})`, param);
    return undefined;
  }
  const text = String(raw).trim();
  const value = text === "" ? Number.NaN : Number(text);
  if (Number.isNaN(value) && text.toLowerCase() !== "nan") {
    throw new DpMarginError("BAD_PARAMETER", `--${flag} must be a number, but is ${JSON.stringify(raw)}`, param);
  }
  return value;
}

// A share given as a fraction (0.05) or a percentage (5%), as the app asks for it (its profile
// field is "Remove at most (%)"); a bare number above 1 is refused as ambiguous.
export function fractionFlag(values: Record<string, unknown>, flag: string, param: string): number | undefined {
  const raw = values[flag];
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const percent = text.endsWith("%");
  const value = Number(percent ? text.slice(0, -1).trim() : text);
  if (text === "" || text === "%" || !Number.isFinite(value)) {
    throw new DpMarginError("BAD_PARAMETER", `--${flag} must be a fraction (0.05) or a percentage (5%), but is ${JSON.stringify(raw)}`, param);
  }
  if (!percent && value > 1) {
    throw new DpMarginError("BAD_PARAMETER", `--${flag} must be a fraction (0.05) or a percentage (5%), but is ${JSON.stringify(raw)}: write ${JSON.stringify(`${text}%`)} for a percentage`, param);
  }
  return percent ? value / 100 : value;
}

// node:util parseArgs treats "-1" after a flag as another option; a negative number is what
// the user meant (and the core then names the bad value), so glue it on as --flag=-1.
export function joinNegativeNumbers(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (/^--[a-z-]+$/.test(argv[i]) && next !== undefined && /^-(\d|\.\d|inf|Infinity)/i.test(next)) {
      out.push(`${argv[i]}=${next}`);
      i++;
    } else {
      out.push(argv[i]);
    }
  }
  return out;
}

// node:util parseArgs's messages ("Unknown option '--foo'. To specify a positional argument
// starting with a '-', place it at the end of the command after '--', as in '-- \"--foo\"") are
// for programmers: say what is wrong with the flag, in the CLI's words.
function parseError(error: Error & { code?: string }): UsageError {
  const message = error.message;
  const flag = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) return new UsageError(`unknown option ${flag}`);
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag) {
    return new UsageError(/does not take an argument/.test(message) ? `option ${flag} takes no value` : `option ${flag} needs a value`);
  }
  if (error.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return new UsageError("too many file arguments");
  return new UsageError(message);
}

export function parse(argv: string[], options: Flags, positionals: number) {
  acceptedFlags = new Set(Object.keys(options).map((name) => `--${name}`));
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeNumbers(argv), strict: true, allowPositionals: true, options });
  } catch (error) {
    throw parseError(error as Error & { code?: string });
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(`expected ${positionals} file argument${positionals === 1 ? "" : "s"}, got ${parsed.positionals.length}`);
  }
  return { values: parsed.values as Record<string, unknown>, files: parsed.positionals };
}

// The run options a command takes, from the core's table: scope "both" plus `scope`; ranges
// (and the maps that go with them) are declared through the API, not on a command line.
export const apiOnly = (o: OptionInfo): boolean => o.type === "ranges" || o.name === "columnMaps";
export function optionFlags(dp: DpMargin, scope: "train" | "plan"): { flags: Flags; options: OptionInfo[] } {
  const options = dp.options.filter((o) => (o.scope === "both" || o.scope === scope) && !apiOnly(o));
  const flags: Flags = {};
  for (const o of options) {
    if (o.type === "boolean") flags[`no-${kebab(o.name)}`] = { type: "boolean" };  // defaults are true
    else flags[kebab(o.name)] = { type: "string" };
  }
  // Aliases kept for scripts: --no-private-ranges is --range-share 0, --private-ranges the
  // default (which has private ranges with iter and fixed).
  if (options.some((o) => o.name === "rangeShare")) {
    flags["no-private-ranges"] = { type: "boolean" };
    flags["private-ranges"] = { type: "boolean" };
  }
  return { flags, options };
}

// Flag values → API options (numbers parsed here so a typo names its flag; every value is then
// checked by the core).
export function runOptions(v: Record<string, unknown>, options: OptionInfo[], required: string[] = []): Record<string, unknown> {
  const rangeFlags = ["range-share", "private-ranges", "no-private-ranges"].filter((f) => v[f] !== undefined);
  if (v["no-private-ranges"] !== undefined && rangeFlags.length > 1) {
    throw new UsageError(`--no-private-ranges contradicts --${rangeFlags.find((f) => f !== "no-private-ranges")}`);
  }
  const out: Record<string, unknown> = {};
  for (const o of options) {
    const flag = kebab(o.name);
    if (o.type === "boolean") {
      if (v[`no-${flag}`]) out[o.name] = false;
    } else if (o.type === "number" || o.type === "count") {
      const x = numberFlag(v, flag, o.name, required.includes(o.name));
      if (x !== undefined) out[o.name] = x;
    } else if (v[flag] !== undefined) {
      out[o.name] = v[flag];
    }
  }
  // --private-ranges asks for the default, which has private ranges (kept for old scripts).
  if (out.rangeShare === undefined && v["no-private-ranges"]) out.rangeShare = 0;
  return out;
}

// A comma-separated list (a value holding a comma is declared in a --schema file instead).
export function listFlag(values: Record<string, unknown>, flag: string): string[] | undefined {
  const raw = values[flag];
  return raw === undefined ? undefined : String(raw).split(",").map((name) => name.trim());
}

// The CSV options a command takes, from the core's table (scope "table"): --label, --classes,
// --missing, --categories, --delimiter, --decimal, --encoding, --schema FILE, …; `only`
// restricts them (predict reads with the model's encoding). --impute C is kept for scripts:
// --missing constant --fill C.
export function tableFlags(dp: DpMargin, only?: readonly string[]): { flags: Flags; options: OptionInfo[] } {
  const options = dp.options.filter((o) => o.scope === "table" && (!only || only.includes(o.name)));
  const flags: Flags = { impute: { type: "string" } };
  for (const o of options) {
    flags[kebab(o.name)] = { type: o.type === "boolean" ? "boolean" : "string" };
    if (o.type === "boolean") flags[`no-${kebab(o.name)}`] = { type: "boolean" };
  }
  return { flags, options };
}

export async function tableOptions(v: Record<string, unknown>, options: OptionInfo[]): Promise<CsvReadOptions> {
  const out: Record<string, unknown> = {};
  for (const o of options) {
    const flag = kebab(o.name);
    if (o.type === "boolean") {
      if (v[flag] && v[`no-${flag}`]) throw new UsageError(`--${flag} contradicts --no-${flag}`);
      if (v[flag]) out[o.name] = true;
      if (v[`no-${flag}`]) out[o.name] = false;
    } else if (v[flag] === undefined) {
      continue;
    } else if (o.type === "number" || o.type === "count") {
      out[o.name] = numberFlag(v, flag, o.name, false);
    } else if (o.type === "texts") {
      out[o.name] = listFlag(v, flag);
    } else if (o.type === "schema") {
      const text = await readText(v[flag] as string, "schema");
      try {
        out[o.name] = JSON.parse(text);
      } catch (error) {
        throw new DpMarginError("BAD_PARAMETER", `schema must be a JSON file, but ${JSON.stringify(v[flag])} is not JSON (${(error as Error).message})`, "schema");
      }
    } else {
      out[o.name] = v[flag];
    }
  }
  const impute = numberFlag(v, "impute", "impute", false);
  if (impute !== undefined) {
    if (!Number.isFinite(impute)) {
      throw new DpMarginError("BAD_PARAMETER", `impute must be a finite public constant, but is ${JSON.stringify(v.impute)}`, "impute");
    }
    if (out.missing !== undefined || out.fill !== undefined) throw new UsageError("--impute contradicts --missing/--fill");
    out.missing = "constant";
    out.fill = impute;
  }
  return out as CsvReadOptions;
}

export async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new DpMarginError("BAD_PARAMETER", `cannot read ${what} ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, what);
  }
}

// Predict reads with the model's encoding: only the dialect, the label to compare with and
// the size limit are chosen.
export const PREDICT_TABLE = ["label", "positive", "delimiter", "decimal", "encoding", "missingTokens", "maxBytes"] as const;

export const outExists = (path: string) => new DpMarginError("BAD_PARAMETER",
  `${JSON.stringify(path)} exists: choose another name, or add --force to overwrite it`, "out");
