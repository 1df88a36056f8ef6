// The per-file privacy ledger on the Train tab: the budget spent on the loaded file in this
// browser, a warning with the total before a run that adds to it, a reset that asks for an
// explicit confirmation, and the ledger file for `dpmargin train --ledger`. The ledger is the
// package's (ledger.ts keeps its state per file; the worker records runs and composes totals with
// dp.ledgerFromJSON): this view only asks and displays.
import type { LedgerFile, LedgerTotal } from "dpmargin";
import { ledgerFor, noteOutcome, resetLedger, storageAvailable, storeLedger, type RunNote } from "../ledger.ts";
import type { LedgerSummary, WireTrainOptions } from "../protocol.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $, download, fmt, table } from "./dom.ts";

export interface LedgerView {
  /** The loaded file changed (null: none). */
  setFile(file: { hash: string; name: string } | null): void;
  /** The loaded file's ledger, passed with the next run (undefined: no file loaded). */
  current(): LedgerFile | undefined;
  /** Before a run: resolves true to go on (no earlier run, or the user confirmed). `next` plans
   *  the run for the preview of the total. */
  confirmRun(next: { options: WireTrainOptions; table: { rows: number; features: number } }): Promise<boolean>;
  /** The package recorded a run on `hash`: store its ledger as it is now. */
  recorded(hash: string, name: string, ledger: LedgerFile, seeded: boolean): void;
  /** How the last recorded run on `hash` ended. */
  ended(hash: string, outcome: RunNote["outcome"]): void;
}

const when = (t: number) => new Date(t).toISOString().replace("T", " ").slice(0, 19) + " UTC";
const runs = (k: number) => `${k} run${k === 1 ? "" : "s"}`;

/** The total as the package composes it, in words. */
function totalText(t: LedgerTotal, seeded: number): string {
  const parts = [`${runs(t.runs)} on this file in this browser: in total ε = ${fmt(t.epsilon)}, δ = ${fmt(t.delta)}`
    + ` (the package's composition, as dpmargin train --ledger keeps it: ${t.gdpRuns} Gaussian-DP run${t.gdpRuns === 1 ? "" : "s"} composed exactly`
    + `${t.gdpRuns ? `, μ = ${fmt(t.mu, 4)}` : ""}${t.runs > t.gdpRuns ? `, ${runs(t.runs - t.gdpRuns)} added by basic composition` : ""}`
    + `; adding every run's ε would say ${fmt(t.basicEpsilon)})`];
  if (seeded) parts.push(`${seeded} seeded run${seeded === 1 ? " is" : "s are"} counted too, and ${seeded === 1 ? "its" : "their"} outputs are not private at all`);
  return parts.join("; ") + ".";
}

export function setupLedger(client: WorkerClient): LedgerView {
  let file: { hash: string; name: string } | null = null;
  let generation = 0;
  const box = $("file-ledger");
  const resetBox = $("ledger-reset-box");
  const understood = $<HTMLInputElement>("ledger-reset-understood");
  const resetConfirm = $<HTMLButtonElement>("ledger-reset-confirm");

  const summary = (ledger: LedgerFile, next?: Parameters<LedgerView["confirmRun"]>[0]) =>
    client.request<LedgerSummary>({ type: "ledger-total", ledger, ...(next ? { next } : {}) });

  const render = async () => {
    const mine = ++generation;
    resetBox.hidden = true;
    if (!file) { box.hidden = true; return; }
    const stored = ledgerFor(file.hash);
    let total: LedgerTotal | null = null;
    try {
      total = (await summary(stored.ledger)).total;
    } catch { /* an unreadable stored ledger: said below */ }
    if (mine !== generation) return;
    const seeded = stored.notes.filter((n) => n.seeded).length;
    box.hidden = false;
    box.dataset.runs = String(stored.ledger.runs.length);
    box.dataset.epsilon = total ? String(total.epsilon) : "";
    box.dataset.delta = total ? String(total.delta) : "";
    box.dataset.mu = total ? String(total.mu) : "";
    box.dataset.basicEpsilon = total ? String(total.basicEpsilon) : "";
    $("file-ledger-total").textContent = stored.ledger.runs.length === 0
      ? `Nothing spent on this file yet in this browser${storageAvailable() ? "" : " (local storage is disabled here: runs cannot be recorded)"}.`
      : total ? totalText(total, seeded) : "The ledger stored for this file could not be read.";
    $<HTMLButtonElement>("ledger-reset").disabled = stored.ledger.runs.length === 0;
    $<HTMLButtonElement>("ledger-download").disabled = stored.ledger.runs.length === 0;
    table($<HTMLTableElement>("file-ledger-table"), ["recorded", "ε", "δ", "μ", "selector", "Gaussian DP", "noise", "ended"],
      stored.ledger.runs.map((r, i) => {
        const note = stored.notes[i];
        return [note ? when(note.at) : "—", fmt(r.epsilon), fmt(r.delta), r.gdp && r.mu !== undefined ? fmt(r.mu, 4) : "—",
          r.selector, r.gdp ? "yes" : "no", note?.seeded ? "seeded — not private" : "secure", note?.outcome ?? "unknown"];
      }));
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
  // The package's ledger file: `dpmargin train DATA --ledger FILE` keeps adding to it. Local: it
  // counts the runs on this file (a run count is not for publication).
  $("ledger-download").addEventListener("click", () => {
    if (!file) return;
    const stem = file.name.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "_") || "data";
    download(`${stem}-ledger-LOCAL.json`, JSON.stringify(ledgerFor(file.hash).ledger, null, 2) + "\n", "application/json");
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
    current() {
      return file ? ledgerFor(file.hash).ledger : undefined;
    },
    async confirmRun(next) {
      if (!file) return true;
      const stored = ledgerFor(file.hash);
      if (stored.ledger.runs.length === 0) return true;
      let s: LedgerSummary | null = null;
      try {
        s = await summary(stored.ledger, next);
      } catch { /* the warning still shows, without totals */ }
      const seeded = stored.notes.filter((n) => n.seeded).length;
      const now = s ? totalText(s.total, seeded) : `${runs(stored.ledger.runs.length)} already recorded.`;
      const more = s?.next && s.after
        ? `Training again releases another model and spends ε = ${fmt(s.next.epsilon)}, δ = ${fmt(s.next.delta)} more: `
          + `the total becomes about ε = ${fmt(s.after.epsilon)}, δ = ${fmt(s.after.delta)} (the package's composition of the ${runs(s.after.runs)}).`
        : "Training again releases another model and spends its (ε, δ) more.";
      $("retrain-text").textContent = `This file has already been trained on in this browser — ${now} ${more}`;
      $("retrain-warning").hidden = false;
      $<HTMLButtonElement>("retrain-confirm").focus();
      return new Promise<boolean>((resolve) => { pending = resolve; });
    },
    recorded(hash, name, ledger, seeded) {
      const ok = storeLedger(hash, name, ledger, { at: Date.now(), seeded, outcome: "running" });
      if (file?.hash === hash) void render().then(() => {
        if (!ok) $("file-ledger-total").textContent = "This browser refused to store the run (local storage disabled or full): it is not in the ledger below, but it was spent.";
      });
    },
    ended(hash, outcome) {
      noteOutcome(hash, outcome);
      if (file?.hash === hash) void render();
    },
  };
}

