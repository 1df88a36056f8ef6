// Step 1: a CSV from a drop, the file picker or a shipped sample, parsed in the worker; a
// preview with detected column types; pickers for the label, positive class and features.
// A bad file shows its typed error inline and clears the current data; the page stays usable.
import type { ColumnSummary } from "dpmargin";
import type { Source, TableSummary, WorkerError } from "../protocol.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $, clearError, dropTarget, el, showError } from "./dom.ts";

/** An entry of public/samples/samples.json (the list is data: add a file and an entry). */
export interface Sample {
  id: string; file: string; title: string; rows: number; features: number;
  label: string; positive: string; licence: string; attribution: string; source: string;
}

export interface DataSelection {
  label: string;
  positive: string;
  features: string[];
}

const LABEL_NAMES = /^(label|labels|target|class|y|outcome|diagnosis)$/i;

function isClean(c: ColumnSummary): boolean {
  return c.kind === "numeric" && c.missing === 0 && c.nonFinite === 0;
}

function guessLabel(columns: ColumnSummary[]): string {
  const named = columns.find((c) => LABEL_NAMES.test(c.name));
  if (named) return named.name;
  const few = [...columns].reverse().find((c) => !c.distinctCapped && c.distinct >= 2 && c.distinct <= 20
    && (c.kind === "text" || c.distinct === 2));
  return (few ?? columns[columns.length - 1]).name;
}

function guessPositive(column: ColumnSummary): string | undefined {
  const values = column.values.map((v) => v.value);
  if (values.length === 0) return undefined;
  for (const p of ["1", "yes", "true", "positive", "pos"]) {
    const hit = values.find((v) => v.toLowerCase() === p);
    if (hit !== undefined) return hit;
  }
  // Otherwise the rarer class: in one-vs-rest it is usually the one of interest.
  return column.values[column.values.length - 1].value;
}

const DELIMITERS: Record<string, string> = { ",": "comma", ";": "semicolon", "\t": "tab" };

function describeKind(c: ColumnSummary): string {
  if (c.kind === "text") return "text";
  if (c.missing || c.nonFinite) return "numeric, gaps";
  return "numeric";
}

export interface DataView {
  /** The current table and the user's choice of columns (null: nothing usable loaded). */
  selection(): DataSelection | null;
  table(): TableSummary | null;
  source(): Source | null;
  /** Re-send the current source to a fresh worker (after a restart). */
  reload(): Promise<void>;
}

export function setupData(client: WorkerClient, hooks: { onChange: () => void; onLoaded: () => void }): DataView {
  const { onChange } = hooks;
  let current: TableSummary | null = null;
  let currentSource: Source | null = null;
  let samples: Sample[] = [];
  let loadGeneration = 0;
  const errorBox = $("data-error");
  const labelSelect = $<HTMLSelectElement>("label-column");
  const positiveSelect = $<HTMLSelectElement>("positive-class");
  const featureList = $("feature-columns");

  const column = (name: string) => current!.columns.find((c) => c.name === name)!;

  const renderPositive = (preferred?: string) => {
    const c = column(labelSelect.value);
    positiveSelect.replaceChildren(...c.values.map((v) =>
      el("option", { value: v.value }, c.distinctCapped ? v.value
        : `${v.value || "(empty)"} — ${v.count} row${v.count === 1 ? "" : "s"}`)));
    const pick = preferred !== undefined && c.values.some((v) => v.value === preferred) ? preferred : guessPositive(c);
    if (pick !== undefined) positiveSelect.value = pick;
    const notes: string[] = [];
    if (c.distinctCapped) notes.push(`This column has more than ${c.values.length} distinct values: is it really the label?`);
    if (c.missing) notes.push(`${c.missing} row${c.missing === 1 ? " has" : "s have"} no label: training will stop there with MISSING_VALUE.`);
    if (c.values.length > 2) notes.push("One-vs-rest: every other value counts as the negative class.");
    $("label-note").textContent = notes.join(" ");
  };

  const renderFeatures = () => {
    const label = labelSelect.value;
    featureList.replaceChildren(...current!.columns.filter((c) => c.name !== label).map((c) => {
      const why = c.kind === "text" ? ` — text (line ${c.firstText!.line}: “${c.firstText!.value}”)`
        : c.missing ? ` — ${c.missing} missing` : c.nonFinite ? ` — ${c.nonFinite} NaN/Inf` : "";
      return el("label", { class: `check${isClean(c) ? "" : " unclean"}` },
        el("input", { type: "checkbox", name: "feature", value: c.name, checked: isClean(c) }),
        ` ${c.name || "(unnamed)"}`, why ? el("span", { class: "why" }, why) : null);
    }));
    updateCount();
  };

  const checkedFeatures = () =>
    [...featureList.querySelectorAll<HTMLInputElement>('input[name="feature"]:checked')].map((i) => i.value);

  const updateCount = () => {
    const all = featureList.querySelectorAll('input[name="feature"]').length;
    $("feature-count").textContent = `(${checkedFeatures().length} of ${all} selected)`;
  };

  const renderPreview = (t: TableSummary) => {
    const label = labelSelect.value;
    const head = el("thead", {},
      el("tr", {}, el("th", { scope: "col" }, "line"), ...t.header.map((h) => el("th", { scope: "col" }, h || "(unnamed)"))),
      el("tr", { class: "types" }, el("th", { scope: "row" }, "type"), ...t.columns.map((c) =>
        el("td", {}, el("span", { class: `type type-${c.name === label ? "label" : c.kind}` },
          c.name === label ? "label" : describeKind(c))))));
    const body = el("tbody", {}, ...t.preview.map((row, i) =>
      el("tr", {}, el("th", { scope: "row" }, String(t.previewLines[i])), ...row.map((v) => el("td", {}, v)))));
    $<HTMLTableElement>("preview-table").replaceChildren(
      el("caption", {}, `First ${t.preview.length} of ${t.rows} rows`), head, body);
  };

  const render = (t: TableSummary, preset?: { label: string; positive: string }) => {
    labelSelect.replaceChildren(...t.columns.map((c) =>
      el("option", { value: c.name }, `${c.name || "(unnamed)"}${c.kind === "text" ? " (text)" : ""}`)));
    labelSelect.value = preset && t.header.includes(preset.label) ? preset.label : guessLabel(t.columns);
    renderPositive(preset?.positive);
    renderFeatures();
    renderPreview(t);
    const kb = t.bytes >= 1 << 20 ? `${(t.bytes / (1 << 20)).toFixed(1)} MB` : `${(t.bytes / 1024).toFixed(1)} KB`;
    const text = t.columns.filter((c) => c.kind === "text").length;
    $("data-summary").replaceChildren(
      el("strong", {}, t.name), ` — ${t.rows} rows × ${t.header.length} columns, ${DELIMITERS[t.delimiter] ?? JSON.stringify(t.delimiter)}-separated, ${kb}, parsed in ${Math.round(t.parseMs)} ms in the worker.`,
      text ? ` ${text} text column${text === 1 ? "" : "s"}.` : "");
    $("data-summary").dataset.rows = String(t.rows);
    $("data-loaded").hidden = false;
  };

  const load = async (source: Source, preset?: { label: string; positive: string }) => {
    const mine = ++loadGeneration;
    clearError(errorBox);
    document.body.dataset.dataState = "loading";
    $("data-section").setAttribute("aria-busy", "true");
    $("data-summary").textContent = `Reading ${source.name}…`;
    try {
      const t = await client.request<TableSummary>({ type: "load", source });
      if (mine !== loadGeneration) return;
      current = t;
      currentSource = source;
      render(t, preset);
      document.body.dataset.dataState = "loaded";
      hooks.onLoaded();
    } catch (error) {
      if (mine !== loadGeneration) return;
      current = null;
      currentSource = null;
      $("data-loaded").hidden = true;
      showError(errorBox, error as WorkerError, source.name);
      document.body.dataset.dataState = "error";
      hooks.onLoaded();
    } finally {
      if (mine === loadGeneration) {
        $("data-section").removeAttribute("aria-busy");
        onChange();
      }
    }
  };

  const fromFile = (file: File) => load({ kind: "file", file, name: file.name });
  const input = $<HTMLInputElement>("file-input");
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    if (file) void fromFile(file);
    input.value = "";  // picking the same file again reloads it
  });
  dropTarget($("drop-zone"), (file) => void fromFile(file));

  labelSelect.addEventListener("change", () => {
    renderPositive();
    renderFeatures();
    renderPreview(current!);
    onChange();
  });
  positiveSelect.addEventListener("change", onChange);
  featureList.addEventListener("change", () => { updateCount(); onChange(); });
  const setAll = (on: (c: ColumnSummary) => boolean) => {
    for (const box of featureList.querySelectorAll<HTMLInputElement>('input[name="feature"]')) box.checked = on(column(box.value));
    updateCount();
    onChange();
  };
  $("features-all").addEventListener("click", () => setAll(isClean));
  $("features-none").addEventListener("click", () => setAll(() => false));

  // The sample list is data (public/samples/samples.json), fetched from this origin.
  const samplesBox = $("samples");
  const samplesUrl = new URL("samples/samples.json", document.baseURI);
  fetch(samplesUrl).then((r) => (r.ok ? r.json() : [])).then((list: Sample[]) => {
    samples = list;
    samplesBox.replaceChildren(...samples.map((s) => el("div", { class: "sample" },
      el("button", { type: "button", class: "secondary", "data-sample": s.id }, `Try a sample: ${s.title}`),
      el("span", { class: "note" }, ` ${s.rows} rows, ${s.features} features, label “${s.label}”. ${s.attribution}. Licence ${s.licence}.`))));
  }).catch(() => { /* offline before the list arrived: no sample buttons */ });
  samplesBox.addEventListener("click", (event) => {
    const id = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-sample]")?.dataset.sample;
    const s = samples.find((x) => x.id === id);
    if (!s) return;
    void load({ kind: "url", url: new URL(`samples/${s.file}`, document.baseURI).href, name: s.file },
      { label: s.label, positive: s.positive });
  });

  return {
    selection() {
      if (!current) return null;
      const features = checkedFeatures();
      // File order, whatever order the boxes were ticked in.
      features.sort((a, b) => current!.header.indexOf(a) - current!.header.indexOf(b));
      return { label: labelSelect.value, positive: positiveSelect.value, features };
    },
    table: () => current,
    source: () => currentSource,
    async reload() {
      if (currentSource) await client.request({ type: "load", source: currentSource });
    },
  };
}
