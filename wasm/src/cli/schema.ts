// The schema training would resolve for a CSV (JSON on stdout): review it, edit it, and pass
// it back with --schema FILE to fix every column's role and handling. Local: it reads the file
// but releases nothing (category lists and classes are not in it unless declared).
import { Progress } from "./progress.js";
import { COMMAND_FLAGS, flagsOf } from "./help.js";
import { parse, tableFlags, tableOptions } from "./flags.js";
import { csvFile, DpMarginError, type DpMargin, type CsvProgress } from "../node.js";

export async function schemaCommand(dp: DpMargin, argv: string[], signal?: AbortSignal): Promise<void> {
  const { flags: csvFlags, options: csvTable } = tableFlags(dp);
  const { values: v, files } = parse(argv, { ...csvFlags, ...flagsOf(COMMAND_FLAGS.schema) }, 1);
  const progress = Progress.fromFlags(v);
  const summary = await dp.summarizeCsv(csvFile(files[0]), {
    ...(await tableOptions(v, csvTable)), previewRows: 0, signal,
    ...(progress.enabled ? { onProgress: (p: CsvProgress) => progress.reading(files[0], p) } : {}),
  } as never);
  progress.done();
  if (summary.schema === null) {
    const e = summary.schemaError!;
    throw new DpMarginError(e.code as DpMarginError["code"], e.message, e.parameter || undefined);
  }
  process.stdout.write(JSON.stringify(summary.schema, null, 2) + "\n");
}
