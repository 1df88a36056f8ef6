// Running the `dpmargin` command as a user does: on a pseudo-terminal (util-linux `script`, part
// of Debian's essential bsdutils: no native build, unlike node-pty) or with stderr into a pipe;
// and reading what a terminal would show from the bytes it was sent.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./helpers.js";

const bin = join(repoRoot, "dist/cli.js");
const quote = (a) => `'${String(a).replace(/'/g, "'\\''")}'`;

export const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

/**
 * Runs `dpmargin ...args` and times it. `terminal`: on a pseudo-terminal (stdout and stderr are
 * the terminal: `output` is the transcript, bytes as the terminal received them); else stdout and
 * stderr are pipes (`output` is stderr). `interrupt(text)`: true when the output so far should get
 * a Ctrl-C (a \x03 typed on the terminal; SIGINT on a pipe) — once.
 * Resolves { status, output, stdout, elapsedMs, chunks: [{ at, text }] } (at: ms since start).
 */
export function run(args, { terminal = false, interrupt = null, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = terminal
      ? spawn("script", ["-qfec", [process.execPath, bin, ...args].map(quote).join(" "), "/dev/null"],
        { env: { ...process.env, SHELL: "/bin/sh", TERM: "xterm" } })
      : spawn(process.execPath, [bin, ...args]);
    const chunks = [];
    let output = "";
    let stdout = "";
    let interrupted = false;
    const take = (text) => {
      chunks.push({ at: performance.now() - started, text });
      output += text;
      if (interrupt && !interrupted && interrupt(output)) {
        interrupted = true;
        if (terminal) child.stdin.write("\x03");
        else child.kill("SIGINT");
      }
    };
    (terminal ? child.stdout : child.stderr).on("data", (d) => take(d.toString("utf8")));
    if (!terminal) child.stdout.on("data", (d) => { stdout += d; });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status: status ?? signal, output, stdout, chunks, elapsedMs: performance.now() - started });
    });
  });
}

/** When (ms since start) the output first held `pattern`. */
export function firstAt(result, pattern) {
  let text = "";
  for (const c of result.chunks) {
    text += c.text;
    if (pattern.test(text)) return c.at;
  }
  return null;
}

/**
 * The lines a terminal shows after receiving `bytes`: printable characters, CR, LF (down one
 * line, same column: the pty's ONLCR has already made "\n" "\r\n"), ESC 7 / ESC 8 (save and
 * restore the cursor), CSI n G (to column n), CSI K (erase in line), CSI A/B/C/D, and mode
 * switches (CSI ? … h/l, ignored). Any other escape is an error, so that nothing passes unread.
 */
export function screen(bytes) {
  const lines = [[]];
  let row = 0;
  let col = 0;
  let saved = [0, 0];
  const at = (r) => {
    while (lines.length <= r) lines.push([]);
    return lines[r];
  };
  for (let i = 0; i < bytes.length; i++) {
    const ch = bytes[i];
    if (ch === "\x1b") {
      const next = bytes[i + 1];
      if (next === "7") { saved = [row, col]; i++; continue; }
      if (next === "8") { [row, col] = saved; i++; continue; }
      const m = /^\[(\??)([0-9;]*)([A-Za-z])/.exec(bytes.slice(i + 1, i + 20));
      if (!m) throw new Error(`unknown escape at ${i}: ${JSON.stringify(bytes.slice(i, i + 8))}`);
      i += m[0].length;
      if (m[1] === "?") continue;
      const n = m[2] === "" ? null : Number(m[2].split(";")[0]);
      const line = at(row);
      switch (m[3]) {
        case "G": col = Math.max(0, (n ?? 1) - 1); break;
        case "K":
          if ((n ?? 0) === 0) line.length = Math.min(line.length, col);
          else if (n === 1) for (let j = 0; j <= col && j < line.length; j++) line[j] = " ";
          else lines[row] = [];
          break;
        case "A": row = Math.max(0, row - (n ?? 1)); break;
        case "B": row += n ?? 1; break;
        case "C": col += n ?? 1; break;
        case "D": col = Math.max(0, col - (n ?? 1)); break;
        default: throw new Error(`unhandled escape ${JSON.stringify(m[0])}`);
      }
      continue;
    }
    if (ch === "\r") { col = 0; continue; }
    if (ch === "\n") { row++; at(row); continue; }
    const line = at(row);
    while (line.length < col) line.push(" ");
    line[col++] = ch;
  }
  return lines.map((l) => l.join(""));
}
