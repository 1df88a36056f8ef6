// `dpmargin profile DATA.csv`: the margin profile (NOT private: a local diagnostic).
import { Progress } from "./progress.js";
import { COMMAND_FLAGS, flagsOf } from "./help.js";
import { fractionFlag, numberFlag, parse, tableFlags, tableOptions } from "./flags.js";
import { csvFile, type DpMargin, type CsvProgress } from "../node.js";

export async function profileCommand(dp: DpMargin, argv: string[], signal?: AbortSignal): Promise<void> {
  const { flags: csvFlags, options: csvTable } = tableFlags(dp);
  const { values: v, files } = parse(argv, {
    ...csvFlags, ...flagsOf(COMMAND_FLAGS.profile),
  }, 1);
  const maxRemoved = fractionFlag(v, "max-removed", "maxRemoved");
  const epsilon = numberFlag(v, "epsilon", "epsilon", false);
  const delta = numberFlag(v, "delta", "delta", false) ?? (epsilon !== undefined ? 1e-5 : undefined);
  const progress = Progress.fromFlags(v);
  const profile = await dp.profileCsv(csvFile(files[0]), {
    ...(await tableOptions(v, csvTable)), signal,
    ...(progress.enabled ? { onProgress: (p: CsvProgress) => progress.reading(files[0], p) } : {}),
  }, {
    ...(maxRemoved !== undefined ? { maxRemoved } : {}), ...(v["no-intercept"] ? { intercept: false } : {}), signal,
    ...(epsilon !== undefined ? { epsilon } : {}), ...(delta !== undefined ? { delta } : {}),
    ...(progress.enabled ? { onProgress: (p) => progress.profiling(p) } : {}),
  });
  progress.done();
  if (v.json) {
    const { table, ...rest } = profile;
    process.stdout.write(JSON.stringify({ ...rest, rows: table.rows, label: table.label }, null, 2) + "\n");
    return;
  }
  const lines = [
    "dpmargin profile — NOT PRIVATE: a local diagnostic that reads every row (never release it)",
    `  ${profile.n} rows${profile.zeroRows ? ` (+${profile.zeroRows} zero rows skipped)` : ""}, ${profile.fits} SVM fits, ${Math.round(profile.elapsedMs)} ms`,
    profile.firstSeparableFraction === null
      ? "  never linearly separable within the removal budget"
      : `  separable after removing ${profile.firstSeparableRemoved} rows (${(100 * profile.firstSeparableFraction).toFixed(3)}%)`,
    "", "  % removed   normalized margin   (minimum before clamping)",
    ...profile.curve.filter((p) => p.onGrid).map((p) =>
      `  ${(100 * p.fraction).toFixed(3).padStart(9)}   ${p.margin.toFixed(6).padStart(17)}   (${p.minimumMargin.toFixed(6)})`),
    "", `  advice (local, not private): ${profile.advice.verdict} — ${profile.advice.text}`,
  ];
  process.stdout.write(lines.join("\n") + "\n");
}
