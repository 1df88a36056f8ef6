#!/usr/bin/env node
// The package's bin, `dpmargin` (the command itself is cli/cli.ts).
import { main } from "./cli/cli.js";

const code = await main(process.argv.slice(2));
process.exitCode = code;
// Once the command is over nothing may keep the process waiting (a timer, a handle a library
// left open): let stdout and stderr drain — at most a second — then exit with its code.
const drained = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => {
  if (stream.destroyed || !stream.writable) resolve();
  else stream.write("", () => resolve());
});
await Promise.race([
  Promise.all([drained(process.stdout), drained(process.stderr)]),
  new Promise((resolve) => setTimeout(resolve, 1000).unref()),
]);
process.exit(code);
