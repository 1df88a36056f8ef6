// The per-file privacy ledger (issue 16.7): every (ε, δ) spent on a file in this browser, keyed
// by the SHA-256 of the file's bytes (hash.ts, computed in the worker), kept in this origin's
// localStorage. Retraining on the same data spends budget again: five runs at ε = 1 release five
// models whose joint guarantee is the composition of the five, not ε = 1. The ledger shows that
// total — basic composition (Σε, Σδ), and Gaussian-DP composition √(Σμ²) when every run is GDP —
// and the app warns before a run that adds to it. Nothing here leaves the browser.

export interface LedgerEntry {
  /** When the run finished (ms since the epoch). */
  at: number;
  epsilon: number;
  delta: number;
  /** The run's μ (GDP) — meaningful for composition only when `gdp`. */
  mu: number;
  /** The run is μ-GDP as a whole (iter / fixed selectors without category discovery; PrivTune's
   *  accounting is Rényi DP, and discovery adds a δ outside GDP). */
  gdp: boolean;
  selector: string;
  seeded: boolean;
}

export interface FileLedger {
  /** The file name when last seen (local convenience only). */
  name: string;
  entries: LedgerEntry[];
}

export interface LedgerTotals {
  runs: number;
  epsilon: number;
  delta: number;
  /** √(Σμ²) when every run is GDP, else null. */
  mu: number | null;
  /** The largest δ of the runs (the δ at which the GDP total is converted to ε). */
  maxDelta: number;
  seeded: number;
}

const KEY = "dpmargin.ledger.v1";

type Store = Record<string, FileLedger>;

function readStore(): Store {
  try {
    const raw = localStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : {};
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Store) : {};
  } catch {
    return {};  // storage disabled or corrupt: an empty ledger (the page says it could not be read)
  }
}

function writeStore(store: Store): boolean {
  try {
    localStorage.setItem(KEY, JSON.stringify(store));
    return true;
  } catch {
    return false;
  }
}

export function ledgerFor(hash: string): FileLedger {
  return readStore()[hash] ?? { name: "", entries: [] };
}

/** Record a finished run; returns false when the browser refused to store it. */
export function recordRun(hash: string, name: string, entry: LedgerEntry): boolean {
  const store = readStore();
  const file = store[hash] ?? { name, entries: [] };
  file.name = name;
  file.entries.push(entry);
  store[hash] = file;
  return writeStore(store);
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

/** Basic composition (Σε, Σδ) always holds; GDP composition √(Σμ²) when every run is μ-GDP. */
export function totals(entries: readonly LedgerEntry[]): LedgerTotals {
  let epsilon = 0, delta = 0, mu2 = 0, maxDelta = 0, seeded = 0;
  let gdp = entries.length > 0;
  for (const e of entries) {
    epsilon += e.epsilon;
    delta += e.delta;
    mu2 += e.mu * e.mu;
    maxDelta = Math.max(maxDelta, e.delta);
    if (!e.gdp) gdp = false;
    if (e.seeded) seeded++;
  }
  return { runs: entries.length, epsilon, delta, mu: gdp ? Math.sqrt(mu2) : null, maxDelta, seeded };
}
