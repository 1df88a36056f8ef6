// `dpmargin --help` and `dpmargin COMMAND --help`: every flag with its description and default,
// grouped. The run and CSV options are the core's table (`dp.options`: name, type, group,
// default, help); the flags of the command itself (--test, --out, …) are listed here, and the
// parser takes its flags from the same lists, so help and parser cannot disagree.
import type { DpMargin, OptionInfo } from "../node.js";

export type Flags = Record<string, { type: "string" | "boolean" }>;

/** A flag of a command itself (not from the core's table). `value`: it takes one. */
export interface FlagDoc {
  name: string;
  value?: string;
  help: string;
  default: string;
}

export const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const PROGRESS: FlagDoc[] = [
  { name: "progress", help: "draw progress bars on stderr even when it is not a terminal", default: "only on a terminal" },
  { name: "quiet", help: "no progress bars and no notes on stderr (warnings and errors still)", default: "off" },
];
const JSON_FLAG: FlagDoc = { name: "json", help: "print the result as JSON on stdout", default: "human-readable text" };

/** The flags of each command that are not options of the core's table. */
export const COMMAND_FLAGS: Record<string, FlagDoc[]> = {
  train: [
    { name: "test", value: "FILE", help: "a held-out CSV to report accuracy on (local, not private)", default: "none" },
    { name: "out", value: "FILE", help: "write the model file (JSON) there (an existing file is refused)", default: "no model file" },
    { name: "force", help: "let --out overwrite an existing file", default: "off" },
    { name: "ledger", value: "FILE", help: "privacy ledger of this dataset: the run is added to it (created if missing), or refused when it would pass its cap", default: "none" },
    { name: "ledger-cap", value: "EPSILON,DELTA", help: "the total cap of a new --ledger file", default: "no cap" },
    JSON_FLAG, ...PROGRESS,
  ],
  predict: [
    { name: "out", value: "FILE", help: "write the predictions CSV there (an existing file is refused)", default: "stdout" },
    { name: "force", help: "let --out overwrite an existing file", default: "off" },
    { name: "keep", value: "A,B,…", help: "copy these columns of DATA.csv into the predictions (to join on)", default: "none" },
    { name: "keep-all", help: "copy every column of DATA.csv into the predictions", default: "off" },
    { name: "threshold", value: "T", help: "binary model: a row is positive when its score is ≥ T (adds a threshold column)", default: "score > 0" },
    ...PROGRESS,
  ],
  profile: [
    { name: "max-removed", value: "F", help: "largest share of rows removed: a fraction (0.05) or a percentage (5%)", default: "5%" },
    { name: "no-intercept", help: "fit the SVM without an intercept", default: "with an intercept" },
    { name: "epsilon", value: "E", help: "advice: compare the margin with the one the DP learner can use at this ε (nothing is spent)", default: "separability only" },
    { name: "delta", value: "D", help: "advice: the δ of that run", default: "1e-5 with --epsilon" },
    JSON_FLAG, ...PROGRESS,
  ],
  schema: [...PROGRESS],
  account: [JSON_FLAG],
};

/** The parser's flags for a command's own flag list. */
export function flagsOf(docs: FlagDoc[]): Flags {
  return Object.fromEntries(docs.map((d) => [d.name, { type: d.value ? "string" : "boolean" }]));
}

export const SYNOPSIS: Record<string, string> = {
  train: "dpmargin train TRAIN.csv --epsilon E --delta D [--label COL] [options]",
  predict: "dpmargin predict MODEL.json DATA.csv [options]",
  profile: "dpmargin profile DATA.csv [--label COL] [options]   (NOT private: a local diagnostic)",
  schema: "dpmargin schema DATA.csv [--label COL] [CSV options]   (the resolved schema as JSON, for --schema)",
  account: "dpmargin account --epsilon E --delta D --n N --d D [options]   (a plan without data)",
};

const SUMMARY: Record<string, string> = {
  train: "train a differentially private classifier on a CSV",
  predict: "score a CSV with a model file",
  profile: "the margin profile of a CSV (not private)",
  schema: "the schema training would resolve for a CSV",
  account: "the privacy accounting and plan of a run, from n and d only",
};

const GROUP_TITLES: Record<OptionInfo["group"], string> = {
  budget: "privacy budget", method: "method", preprocessing: "preprocessing",
  randomness: "randomness", table: "table size (account)", data: "reading the CSV",
};

function line(flag: string, help: string, dflt: string): string {
  const text = dflt === "required" ? `${help} (required)` : `${help} (default: ${dflt})`;
  return flag.length > 32 ? `  ${flag}\n  ${"".padEnd(32)}  ${text}` : `  ${flag.padEnd(32)}  ${text}`;
}

function optionLine(o: OptionInfo): string {
  const flag = o.name;
  if (o.type === "boolean") {
    return o.scope === "table"
      ? line(`--[no-]${kebab(flag)}`, o.help, o.defaultText)
      : line(`--no-${kebab(flag)}`, `turn off: ${o.help}`, `on`);
  }
  const value = o.type === "choice" ? o.choices.join("|") : o.type === "texts" ? "A,B,…" : o.type === "schema" ? "FILE.json" : "X";
  return line(`--${kebab(flag)} ${value}`, o.help, o.defaultText);
}

/** The core options a command takes (train: run + CSV; account: plan; predict: a few CSV). */
export function commandOptions(dp: DpMargin, command: string, predictTable: readonly string[]): OptionInfo[] {
  return dp.options.filter((o) => {
    if (o.type === "ranges" || o.name === "columnMaps") return false;  // the API declares ranges
    switch (command) {
      case "train": return o.scope === "both" || o.scope === "train" || o.scope === "table";
      case "account": return o.scope === "both" || o.scope === "plan";
      case "predict": return o.scope === "table" && predictTable.includes(o.name);
      case "profile": case "schema": return o.scope === "table";
      default: return false;
    }
  });
}

/** `dpmargin COMMAND --help`: the synopsis, then every flag, grouped, with its default. */
export function commandHelp(dp: DpMargin, command: string, predictTable: readonly string[]): string {
  const lines = [`usage: ${SYNOPSIS[command]}`, "", `${SUMMARY[command]}.`];
  const options = commandOptions(dp, command, predictTable);
  for (const group of Object.keys(GROUP_TITLES) as OptionInfo["group"][]) {
    const inGroup = options.filter((o) => o.group === group);
    if (inGroup.length === 0) continue;
    lines.push("", `${GROUP_TITLES[group]}:`, ...inGroup.map(optionLine));
    if (group === "preprocessing" && inGroup.some((o) => o.name === "rangeShare")) {
      lines.push(line("--no-private-ranges", "the same as --range-share 0", "private ranges as --range-share says"));
    }
    if (group === "data" && command !== "predict") lines.push(line("--impute C", "the same as --missing constant --fill C", "none"));
    if (group === "data" && command === "predict") lines.push(line("--impute C", "the public fill of a version 1 model's missing cells", "none: refused"));
  }
  lines.push("", `${command}:`, ...COMMAND_FLAGS[command].map((d) => line(`--${d.name}${d.value ? ` ${d.value}` : ""}`, d.help, d.default)));
  lines.push(`  ${"--help, -h".padEnd(32)}  this help`);
  return lines.join("\n");
}

/** `dpmargin --help`: the commands, then `dpmargin COMMAND --help` for their flags. */
export function usage(): string {
  return [
    "usage: dpmargin COMMAND [FILES] [options]",
    "",
    "commands:",
    ...Object.keys(SYNOPSIS).map((c) => `  ${c.padEnd(8)}  ${SUMMARY[c]}\n            ${SYNOPSIS[c]}`),
    "",
    "  dpmargin COMMAND --help   every flag of a command, grouped, with its description and default",
    "  dpmargin --version        the library version",
    "",
    "Exit codes: 0 success; 2 bad input or parameters (one line on stderr); 1 internal error.",
  ].join("\n");
}
