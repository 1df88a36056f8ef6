#!/usr/bin/env node
// The package's bin, `dpmargin` (the command itself is cli/cli.ts).
import { main } from "./cli/cli.js";

process.exitCode = await main(process.argv.slice(2));
