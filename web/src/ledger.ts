// The per-file privacy ledger's storage (issue 16.7, issue 30 item 4): for every file trained on
// in this browser, keyed by the SHA-256 of its bytes (hash.ts, computed in the worker), the
// package's PrivacyLedger state — the `dpmargin-ledger` file that `ledger.toJSON()` writes and
// `dpmargin train --ledger FILE` reads — kept in this origin's localStorage. The worker records
// each run in it through the package (`trainCsv`'s `ledger` option) and composes it
// (`dp.ledgerFromJSON(file).total`, the core's accounting::composeLedger): nothing here adds
// budgets. Beside it, local notes per run (when, seeded, how it ended). Nothing leaves the browser.
import type { LedgerFile } from "dpmargin";

/** Local facts about one recorded run (never released): `notes[i]` belongs to `ledger.runs[i]`. */
export interface RunNote {
  /** When the run was recorded (ms since the epoch). */
  at: number;
  seeded: boolean;
  /** How it ended: the package records a run before its first noise, so a run cancelled or
   *  failed afterwards stays recorded. "unknown": migrated from the app's old ledger. */
  outcome: "running" | "finished" | "cancelled" | "failed" | "unknown";
}

export interface StoredLedger {
  /** The file name when last seen (local convenience only). */
  name: string;
  ledger: LedgerFile;
  notes: RunNote[];
}

const KEY = "dpmargin.ledger.v2";
/** The app's own ledger before issue 30 (its entries composed by the app): read once, converted. */
const OLD_KEY = "dpmargin.ledger.v1";

type Store = Record<string, StoredLedger>;

export const emptyLedger = (): LedgerFile => ({ format: "dpmargin-ledger", version: 1, cap: null, runs: [] });

interface OldEntry { at: number; epsilon: number; delta: number; mu: number; gdp: boolean; selector: string; seeded: boolean }

// An old entry as the package's record: a GDP run (no discovery, so δ_GDP = δ) keeps its μ; any
// other run (PrivTune, or a run that discovered categories, whose δ_GDP the old entry did not
// keep) counts by basic composition, (ε, δ) — valid for every run, never smaller.
function migrate(old: Record<string, { name: string; entries: OldEntry[] }>): Store {
  const store: Store = {};
  for (const [hash, file] of Object.entries(old)) {
    if (!file || !Array.isArray(file.entries)) continue;
    store[hash] = {
      name: file.name ?? "",
      ledger: {
        ...emptyLedger(),
        runs: file.entries.map((e) => (e.gdp
          ? { epsilon: e.epsilon, delta: e.delta, gdp: true, mu: e.mu, deltaGdp: e.delta, selector: e.selector }
          : { epsilon: e.epsilon, delta: e.delta, gdp: false, selector: e.selector })),
      },
      notes: file.entries.map((e) => ({ at: e.at, seeded: e.seeded, outcome: "unknown" as const })),
    };
  }
  return store;
}

function parse(raw: string | null): Record<string, unknown> {
  const parsed = raw ? (JSON.parse(raw) as unknown) : {};
  return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

function readStore(): Store {
  try {
    const current = localStorage.getItem(KEY);
    if (current !== null) return parse(current) as Store;
    const old = localStorage.getItem(OLD_KEY);
    return old !== null ? migrate(parse(old) as Record<string, { name: string; entries: OldEntry[] }>) : {};
  } catch {
    return {};  // storage disabled or corrupt: an empty ledger (the page says it could not be read)
  }
}

function writeStore(store: Store): boolean {
  try {
    localStorage.setItem(KEY, JSON.stringify(store));
    localStorage.removeItem(OLD_KEY);  // converted into KEY
    return true;
  } catch {
    return false;
  }
}

export function ledgerFor(hash: string): StoredLedger {
  const stored = readStore()[hash];
  return stored && stored.ledger ? stored : { name: "", ledger: emptyLedger(), notes: [] };
}

/** Store the file's ledger as the package left it after a run (it may hold one more run than
 *  before), with the note of that run; returns false when the browser refused to store it. */
export function storeLedger(hash: string, name: string, ledger: LedgerFile, note: RunNote): boolean {
  const store = readStore();
  const notes = [...(store[hash]?.notes ?? [])];
  while (notes.length < ledger.runs.length - 1) notes.push({ at: note.at, seeded: false, outcome: "unknown" });
  notes.length = Math.max(0, ledger.runs.length - 1);
  notes.push(note);
  store[hash] = { name, ledger, notes };
  return writeStore(store);
}

/** How the last recorded run of this file ended (its note; the ledger itself is unchanged). */
export function noteOutcome(hash: string, outcome: RunNote["outcome"]): void {
  const store = readStore();
  const notes = store[hash]?.notes;
  if (!notes || notes.length === 0) return;
  notes[notes.length - 1] = { ...notes[notes.length - 1], outcome };
  writeStore(store);
}

/** Forget every run recorded for this file (after an explicit confirmation). */
export function resetLedger(hash: string): void {
  const store = readStore();
  delete store[hash];
  writeStore(store);
}

export function storageAvailable(): boolean {
  try {
    const probe = `${KEY}.probe`;
    localStorage.setItem(probe, "1");
    localStorage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}
