// The per-file privacy ledger on the Train tab (ledger.ts holds the storage and the sums): the
// budget spent on the loaded file in this browser, a warning with the running total before a
// run that adds to it, and a reset that asks for an explicit confirmation.
import { ledgerFor, recordRun, resetLedger, storageAvailable, totals, type LedgerEntry } from "../ledger.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $, el, fmt, table } from "./dom.ts";

export interface LedgerView {
  /** The loaded file changed (null: none). */
  setFile(file: { hash: string; name: string } | null): void;
  /** Before a run: resolves true to go on (no earlier run, or the user confirmed). */
  confirmRun(next: { epsilon: number; delta: number }): Promise<boolean>;
  /** A run finished on `hash`: record what it spent. */
  record(hash: string, name: string, entry: LedgerEntry): void;
}

const when = (t: number) => new Date(t).toISOString().replace("T", " ").slice(0, 19) + " UTC";

export function setupLedger(client: WorkerClient): LedgerView {
  let file: { hash: string; name: string } | null = null;
  let generation = 0;
  const box = $("file-ledger");
  const resetBox = $("ledger-reset-box");
  const understood = $<HTMLInputElement>("ledger-reset-understood");
  const resetConfirm = $<HTMLButtonElement>("ledger-reset-confirm");

  const totalText = async (entries: LedgerEntry[]) => {
    const t = totals(entries);
    const parts = [`${t.runs} run${t.runs === 1 ? "" : "s"}: basic composition Σε = ${fmt(t.epsilon)}, Σδ = ${fmt(t.delta)}`];
    if (t.mu !== null) {
      let eps = Number.NaN;
      try { eps = await client.request<number>({ type: "gdp-epsilon", mu: t.mu, delta: t.maxDelta }); } catch { /* shown as — */ }
      parts.push(`Gaussian-DP composition (every run is GDP): μ = √Σμ² = ${fmt(t.mu, 4)}, i.e. ε = ${fmt(eps, 4)} at δ = ${fmt(t.maxDelta)}`);
    } else if (t.runs) {
      parts.push("(not every run is Gaussian DP — PrivTune or category discovery — so only the basic composition applies)");
    }
    if (t.seeded) parts.push(`${t.seeded} seeded run${t.seeded === 1 ? " is" : "s are"} counted too, and ${t.seeded === 1 ? "its" : "their"} outputs are not private at all`);
    return { text: parts.join("; ") + ".", t };
  };

  const render = async () => {
    const mine = ++generation;
    resetBox.hidden = true;
    if (!file) { box.hidden = true; return; }
    const entries = ledgerFor(file.hash).entries;
    const { text, t } = await totalText(entries);
    if (mine !== generation) return;
    box.hidden = false;
    box.dataset.runs = String(t.runs);
    box.dataset.epsilon = String(t.epsilon);
    box.dataset.delta = String(t.delta);
    box.dataset.mu = t.mu === null ? "" : String(t.mu);
    $("file-ledger-total").textContent = t.runs === 0
      ? `Nothing spent on this file yet in this browser${storageAvailable() ? "" : " (local storage is disabled here: runs cannot be recorded)"}.`
      : text;
    $<HTMLButtonElement>("ledger-reset").disabled = t.runs === 0;
    table($<HTMLTableElement>("file-ledger-table"), ["finished", "ε", "δ", "μ", "selector", "GDP", "noise"],
      entries.map((e) => [when(e.at), fmt(e.epsilon), fmt(e.delta), fmt(e.mu, 4), e.selector, e.gdp ? "yes" : "no", e.seeded ? "seeded — not private" : "secure"]));
  };

  $("ledger-reset").addEventListener("click", () => {
    understood.checked = false;
    resetConfirm.disabled = true;
    resetBox.hidden = false;
  });
  understood.addEventListener("change", () => { resetConfirm.disabled = !understood.checked; });
  $("ledger-reset-cancel").addEventListener("click", () => { resetBox.hidden = true; });
  resetConfirm.addEventListener("click", () => {
    if (!file || !understood.checked) return;
    resetLedger(file.hash);
    void render();
  });

  let pending: ((go: boolean) => void) | null = null;
  const answer = (go: boolean) => {
    $("retrain-warning").hidden = true;
    const p = pending;
    pending = null;
    p?.(go);
  };
  $("retrain-confirm").addEventListener("click", () => answer(true));
  $("retrain-cancel").addEventListener("click", () => answer(false));

  return {
    setFile(f) {
      file = f;
      answer(false);
      void render();
    },
    async confirmRun(next) {
      if (!file) return true;
      const entries = ledgerFor(file.hash).entries;
      if (entries.length === 0) return true;
      const now = await totalText(entries);
      const after = totals([...entries, { at: 0, epsilon: next.epsilon, delta: next.delta, mu: 0, gdp: false, selector: "", seeded: false }]);
      $("retrain-text").textContent = `This file has already been trained on in this browser — ${now.text} `
        + `Training again releases another model and spends ε = ${fmt(next.epsilon)}, δ = ${fmt(next.delta)} more: `
        + `by basic composition the total becomes Σε = ${fmt(after.epsilon)}, Σδ = ${fmt(after.delta)}.`;
      $("retrain-warning").hidden = false;
      $<HTMLButtonElement>("retrain-confirm").focus();
      return new Promise<boolean>((resolve) => { pending = resolve; });
    },
    record(hash, name, entry) {
      const ok = recordRun(hash, name, entry);
      if (!ok) $("file-ledger-total").textContent = "This browser refused to store the run (local storage disabled or full).";
      if (file?.hash === hash) void render();
    },
  };
}
