/**
 * The `dpmargin` command (SPEC §5.2), run by the bin entry (../cli.ts). Exit codes: 0 success;
 * 2 bad input or parameters (one line on stderr, nothing on stdout); 1 internal failure.
 * Every option of a run comes from the core's option table (`dp.options`): its flag is the
 * name in kebab case (maxIterations → --max-iterations), its type and help are the table's.
 */
import { commandHelp, usage } from "./help.js";
import { PREDICT_TABLE, typedFlag, UsageError } from "./flags.js";
import { accountCommand } from "./account.js";
import { trainCommand } from "./train.js";
import { predictCommand } from "./predict.js";
import { profileCommand } from "./profile.js";
import { schemaCommand } from "./schema.js";
import { Progress } from "./progress.js";
import { load, DpMarginError, type DpMargin } from "../node.js";

// The command being run: usage errors point at its help.
let currentCommand: string | null = null;

// `dpmargin --help`: the commands, then every flag of train (the widest command) and the
// plan-only options of account, grouped, with their defaults.
function fullHelp(dp: DpMargin): string {
  const account = commandHelp(dp, "account", PREDICT_TABLE).split("\n");
  const tableSize = account.slice(account.indexOf("table size (account):"));
  return [usage(), "", "── dpmargin train --help ──", commandHelp(dp, "train", PREDICT_TABLE), "",
    "── dpmargin account --help (what train does not take) ──",
    ...tableSize.slice(0, tableSize.indexOf("")), "",
    "predict, profile and schema take the reading options above that apply (see their --help)."].join("\n");
}

// Every command takes the signal that Ctrl-C (SIGINT) or SIGTERM aborts: reading, training and
// scoring stop at their next check and the command ends with CANCELLED (exit 130).
type Command = (dp: DpMargin, argv: string[], signal: AbortSignal) => Promise<void>;
const COMMANDS: Record<string, Command> = {
  account: accountCommand, train: trainCommand, predict: predictCommand, profile: profileCommand, schema: schemaCommand,
};

// `dpmargin predict … | head`: the reader went away; that is not an error. Exit 0, quietly.
function quietOnBrokenPipe(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
}

// Ctrl-C or SIGTERM: the first cancels the command (its bars stopped, its ledger written, a
// line saying so); a second one exits at once.
function cancelOnSignal(): { signal: AbortSignal; release: () => void } {
  const abort = new AbortController();
  const onSignal = () => {
    if (abort.signal.aborted) {
      Progress.stopAll();
      process.exit(130);
    }
    abort.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: abort.signal,
    release: () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}

export async function main(argv: string[]): Promise<number> {
  quietOnBrokenPipe();
  const [command, ...rest] = argv;
  const cancel = cancelOnSignal();
  try {
    if (command === undefined || command === "--help" || command === "-h") {
      const dp = await load();
      const text = command === undefined ? usage() : fullHelp(dp);
      (command === undefined ? process.stderr : process.stdout).write(text + "\n");
      return command === undefined ? 2 : 0;
    }
    if (command === "--version") {
      process.stdout.write((await load()).version + "\n");
      return 0;
    }
    const run = COMMANDS[command];
    if (!run) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    currentCommand = command;
    // `dpmargin train --help` (before any "--", which ends the flags).
    const end = rest.indexOf("--");
    if ((end < 0 ? rest : rest.slice(0, end)).some((a) => a === "--help" || a === "-h")) {
      process.stdout.write(commandHelp(await load(), command, PREDICT_TABLE) + "\n");
      return 0;
    }
    await run(await load(), rest, cancel.signal);
    Progress.stopAll();
    return 0;
  } catch (error) {
    // Every bar stopped and its line finished first: the error starts a line of its own.
    Progress.stopAll();
    if (error instanceof UsageError) {
      // One line: scripts read the first line of stderr.
      const message = error.message.split("\n")[0];
      process.stderr.write(`dpmargin: ${message} (see dpmargin ${currentCommand ? `${currentCommand} ` : ""}--help)\n`);
      return 2;
    }
    if (error instanceof DpMarginError && error.code === "CANCELLED" && cancel.signal.aborted) {
      process.stderr.write(`dpmargin: CANCELLED: ${error.message}\n`);
      return 130;
    }
    if (error instanceof DpMarginError && error.code !== "INTERNAL" && error.code !== "WASM_LOAD") {
      // Bad input or parameters: exit 2, one line, nothing on stdout.
      const flag = typedFlag(error.parameter);
      process.stderr.write(`dpmargin: ${error.code}${flag ? ` (${flag})` : ""}: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`dpmargin: internal error: ${(error as Error)?.stack ?? error}\n`);
    return 1;
  } finally {
    cancel.release();
  }
}
