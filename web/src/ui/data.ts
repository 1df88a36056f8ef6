// Step 1: a CSV from a drop, the file picker or a shipped sample, read in the worker (bytes and
// rows shown while it reads, with a Cancel); then the column table: one row per column with the
// kind the core proposes (from the header names and the kind of the cells only), what the file
// holds (local), and an editor per column — kind, missing handling, nullable, categories. The
// choices are the run's schema (docs/reference/PRIVACY_SCHEMA.md "The schema"): public because the user declares
// them here, and sent to the package as `schema`. Nothing read off the values reaches a model:
// the label is pre-selected only when the core proposes it by its header name (otherwise Train
// stays disabled until the user picks one), and the positive class is the user's choice or the
// core's public rule. The schema can be exported and imported as the core's JSON format.
import type { ColumnSummary, SchemaColumn, SchemaFile } from "dpmargin";
import type { Reply, Source, TableSummary, WorkerError } from "../protocol.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $, clearError, download, dropTarget, el, percent, showError } from "./dom.ts";

/** An entry of public/samples/samples.json (the list is data: add a file and an entry). */
export interface Sample {
  id: string; file: string; title: string; rows: number; features: number;
  label: string; positive: string; licence: string; attribution: string; source: string;
}

type Kind = "numeric" | "categorical" | "ignore";
type Missing = "indicator" | "constant" | "error" | "level";
type Categories = "auto" | "discover" | "hash" | "declared";
/** How the label's classes are fixed (the core's classSource). */
export type ClassMode = "binary01" | "discover" | "positive" | "declared";

interface Choice {
  kind: Kind;
  missing: Missing;
  nullable: boolean;
  fill: number;
  categories: Categories;
  levels: string;
  /** What the core proposed, and why (shown in the "detected" cell). */
  detected: Kind;
  reason: string;
  /** The core reads this numeric column's few text cells as missing (only while undeclared). */
  textAsMissing: boolean;
}

export interface DataSelection {
  /** The schema the user declared: label, classes, every column's kind and handling. */
  schema: SchemaFile;
  label: string;
  /** Columns used as features, and the number of model columns they make (an estimate when
   *  categories are discovered or chosen automatically). */
  features: string[];
  modelColumns: number;
  /** The classes when known before training (declared, 0/1, or positive against the rest). */
  classes: string[] | null;
}

const DELIMITERS: Record<string, string> = { ",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe" };
const IDENTIFIER = /^(|id|index|rownames|row_?names|unnamed: ?0|.*_id|.*[a-z]Id)$/;

/** The core's kind rule for a column that is not the label (docs/reference/DATA_PIPELINE.md "The schema"). */
function proposedKind(c: ColumnSummary): { kind: Kind; reason: string } {
  const present = c.numbers + c.text + c.nonFinite;
  if (IDENTIFIER.test(c.name) || /^id$/i.test(c.name)) return { kind: "ignore", reason: "header name reads like an identifier" };
  if (present === 0) return { kind: "ignore", reason: "no values" };
  if (c.text === 0) return { kind: "numeric", reason: "numbers" };
  if (c.numbers > 0 && c.text <= 0.05 * present) return { kind: "numeric", reason: `numbers (${c.text} text cells read as missing)` };
  return { kind: "categorical", reason: "text cells" };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const kb = (bytes: number) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`);

/** "What the file holds": local information for the user, never released. */
function cellsText(c: ColumnSummary): string {
  const parts: string[] = [];
  if (c.numbers) parts.push(plural(c.numbers, "number"));
  if (c.text) parts.push(`${plural(c.text, "text cell")}${c.firstText ? ` (line ${c.firstText.line}: “${c.firstText.value}”)` : ""}`);
  if (c.missing) parts.push(`${c.missing} missing${c.firstMissing ? ` (line ${c.firstMissing.line})` : ""}`);
  if (c.nonFinite) parts.push(`${c.nonFinite} NaN/Inf`);
  parts.push(`${c.distinctCapped ? `over ${c.distinct}` : c.distinct} distinct`);
  return parts.join(", ");
}

export interface DataView {
  /** The declared schema, or null (with the reason) when training cannot start yet. */
  selection(): DataSelection | null;
  /** Why Train is disabled ("" when it is not). */
  blocker(): string;
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
  let loadingId: number | null = null;
  const choices = new Map<string, Choice>();
  let label = "";
  let labelHow = "";
  let classMode: ClassMode = "binary01";
  let positive = "";
  let declaredClasses = "";
  let tableLevel: { maxLevels: number; hashBuckets: number; csv: SchemaFile["csv"] | null } = { maxLevels: 32, hashBuckets: 16, csv: null };
  const errorBox = $("data-error");
  const labelSelect = $<HTMLSelectElement>("label-column");
  const modeSelect = $<HTMLSelectElement>("class-mode");
  const positiveSelect = $<HTMLSelectElement>("positive-class");
  const classesInput = $<HTMLInputElement>("declared-classes");
  const columnTable = $<HTMLTableElement>("column-table");

  const summaryOf = (name: string) => current!.columns.find((c) => c.name === name)!;

  // ---------- the label and its classes ----------

  const labelIsNumeric = () => label !== "" && summaryOf(label).kind !== "text";

  const defaultMode = (): ClassMode => (labelIsNumeric() ? "binary01" : "positive");

  const parseList = (text: string) => text.split(",").map((s) => s.trim()).filter((s) => s !== "");

  const renderClasses = () => {
    const has = label !== "";
    $("classes-fields").hidden = !has;
    $("class-balance").hidden = !has;
    if (!has) {
      $("label-note").textContent = labelHow;
      return;
    }
    const c = summaryOf(label);
    const binary01 = modeSelect.querySelector<HTMLOptionElement>('option[value="binary01"]')!;
    binary01.disabled = c.kind === "text";
    if (classMode === "binary01" && binary01.disabled) classMode = "positive";
    modeSelect.value = classMode;
    positiveSelect.replaceChildren(el("option", { value: "" }, "— choose the positive class —"),
      ...c.values.map((v) => el("option", { value: v.value }, v.value || "(empty)")));
    positiveSelect.value = c.values.some((v) => v.value === positive) ? positive : "";
    if (positiveSelect.value === "" && positive !== "") {
      positiveSelect.append(el("option", { value: positive }, `${positive} (not among the file's first values)`));
      positiveSelect.value = positive;
    }
    $("positive-field").hidden = classMode !== "positive";
    $("declared-field").hidden = classMode !== "declared";
    classesInput.value = declaredClasses;
    const rule: Record<ClassMode, string> = {
      binary01: "The label holds 0 and 1; 1 is the positive class (the core's public rule for a numeric label). Any other value stops training with BAD_LABEL: declare the classes then.",
      discover: "The classes are discovered under the privacy budget (part of μ goes to it; rare classes may not be found). With two classes the positive one is the second in byte order (the core's public rule: an order, never a count); with three or more, one-vs-rest.",
      positive: positive === "" ? "Choose the class to detect: it is trained against every other value. Training stays disabled until you do."
        : `“${positive}” against every other value (your declaration: public).`,
      declared: (() => {
        const list = parseList(declaredClasses);
        if (list.length < 2) return "Type the class names, comma-separated (2 to 50). A value outside them stops training with BAD_LABEL.";
        if (list.length === 2) return `Two classes: the second, “${list[1]}”, is the positive class (the core's rule for a declared pair).`;
        return `${list.length} classes: one-vs-rest, each class against the others under the one (ε, δ).`;
      })(),
    };
    $("class-rule").textContent = rule[classMode];
    $("label-note").textContent = labelHow + (c.missing ? ` ${plural(c.missing, "row")} ha${c.missing === 1 ? "s" : "ve"} no label: training stops there with MISSING_VALUE.` : "");
    renderBalance(c);
  };

  /** The chosen label's class balance in this file: the user's own view, never released. */
  const renderBalance = (c: ColumnSummary) => {
    const n = current!.rows;
    let rows: [string, number][];
    if (classMode === "positive" && positive !== "") {
      const pos = c.values.find((v) => v.value === positive)?.count ?? 0;
      rows = [[positive, pos], [`not ${positive}`, n - pos]];
    } else {
      rows = c.values.map((v) => [v.value || "(empty)", v.count]);
    }
    const top = rows.reduce((m, r) => Math.max(m, r[1]), 0);
    const box = $("class-balance");
    box.replaceChildren(
      el("h4", {}, "Class balance in this file ", el("span", { class: "tag" }, "your own view — local, not released")),
      el("table", { id: "balance-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "class"), el("th", { scope: "col" }, "rows"), el("th", { scope: "col" }, "share"))),
        el("tbody", {}, ...rows.slice(0, 12).map(([v, k]) => el("tr", {},
          el("th", { scope: "row", class: "ellipsis", title: v }, v), el("td", {}, String(k)), el("td", {}, percent(k / n)))))),
      el("p", { class: "note" },
        "Majority-class rate: ", el("strong", { id: "majority-rate", "data-value": String(top / n) }, percent(top / n)),
        " — a model must beat this to be useful. ",
        c.distinctCapped ? `(More than ${c.distinct} distinct values: is this really the label?) ` : "",
        rows.length > 12 ? `(${rows.length - 12} more values not shown.) ` : "",
        "These counts are read exactly from your file, on this machine, for you; they are not part of any model or report."));
  };

  // ---------- the column table ----------

  const kindOf = (name: string): Kind | "label" => (name === label ? "label" : choices.get(name)!.kind);

  const editorRow = (c: ColumnSummary) => {
    const name = c.name;
    const ch = choices.get(name)!;
    const isLabel = name === label;
    const cells = el("td", { class: "cells" }, cellsText(c));
    const detected = el("td", { class: "detected" }, isLabel ? `label (${labelHow ? (labelHow.startsWith("Proposed") ? "header name" : "your choice") : ""})`
      : `${ch.detected} — ${ch.reason}`);
    const nameCell = el("th", { scope: "row", class: "ellipsis", title: name || "(unnamed)" }, name || "(unnamed)");
    if (isLabel) {
      return el("tr", { "data-column": name, class: "label-row" }, nameCell, detected, cells,
        el("td", { colspan: "4" }, el("span", { class: "type type-label" }, "label")));
    }
    const select = (field: string, value: string, options: [string, string][], aria: string, disabled = false) =>
      el("select", { "data-field": field, "aria-label": `${aria} of ${name || "(unnamed)"}`, ...(disabled ? { disabled: true } : {}) },
        ...options.map(([v, t]) => el("option", { value: v, ...(v === value ? { selected: true } : {}) }, t)));
    const used = ch.kind !== "ignore";
    const missingOptions: [string, string][] = ch.kind === "categorical"
      ? [["level", "a “missing” level"], ["error", "refuse (MISSING_VALUE)"]]
      : [["indicator", "fill + 0/1 column"], ["constant", "fill only"], ["error", "refuse (MISSING_VALUE)"]];
    const catCell = ch.kind === "categorical"
      ? el("td", {},
        select("categories", ch.categories, [["auto", "auto (discover or hash, by public numbers)"], ["discover", "discover privately"],
          ["hash", "hash (no values learnt)"], ["declared", "declared list"]], "Categories"),
        ch.categories === "declared" ? el("input", {
          type: "text", "data-field": "levels", value: ch.levels, placeholder: "a, b, c",
          "aria-label": `Declared categories of ${name || "(unnamed)"}`,
        }) : null)
      : el("td", { class: "muted" }, "—");
    return el("tr", { "data-column": name, class: used ? "" : "ignored" }, nameCell, detected, cells,
      el("td", {}, select("kind", ch.kind, [["numeric", "numeric"], ["categorical", "categorical"], ["ignore", "ignore"]], "Use")),
      el("td", {}, used ? select("missing", ch.missing, missingOptions, "Missing cells") : "—"),
      el("td", {}, used ? el("label", { class: "check" },
        el("input", { type: "checkbox", "data-field": "nullable", checked: ch.nullable, "aria-label": `${name || "(unnamed)"} may be missing` }),
        "may be missing") : "—"),
      catCell);
  };

  const renderColumns = () => {
    const t = current!;
    columnTable.replaceChildren(
      el("caption", {}, "Columns: what the core proposes, what your file holds (local), and how to use each"),
      el("thead", {}, el("tr", {}, ...["column", "proposed", "in this file (local)", "use as", "missing cells", "nullable", "categories"]
        .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...t.columns.map(editorRow)));
    renderCount();
    renderPreviewTypes();
  };

  const renderCount = () => {
    const s = buildSchemaOrNull();
    const used = current!.columns.filter((c) => c.name !== label && choices.get(c.name)!.kind !== "ignore").length;
    $("feature-count").textContent = `${used} of ${current!.columns.length - (label ? 1 : 0)} columns used as features` +
      (s ? ` → ${estimateWidth()} model columns` : "");
  };

  /** Model columns the choices make (categorical: discovered/auto counted at the level cap). */
  const estimateWidth = () => {
    let d = 0;
    for (const c of current!.columns) {
      if (c.name === label) continue;
      const ch = choices.get(c.name)!;
      if (ch.kind === "numeric") d += 1 + (ch.nullable && ch.missing === "indicator" ? 1 : 0);
      else if (ch.kind === "categorical") {
        const levels = ch.categories === "declared" ? parseList(ch.levels).length + 1
          : ch.categories === "hash" ? tableLevel.hashBuckets : Math.min(tableLevel.maxLevels, 8) + 1;
        d += levels + (ch.nullable && ch.missing === "level" ? 1 : 0);
      }
    }
    return d;
  };

  const renderPreviewTypes = () => {
    const t = current!;
    const head = el("thead", {},
      el("tr", {}, el("th", { scope: "col" }, "line"), ...t.header.map((h) => el("th", { scope: "col", class: "ellipsis", title: h || "(unnamed)" }, h || "(unnamed)"))),
      el("tr", { class: "types" }, el("th", { scope: "row" }, "use"), ...t.columns.map((c) => {
        const k = kindOf(c.name);
        return el("td", {}, el("span", { class: `type type-${k}` }, k));
      })));
    const body = el("tbody", {}, ...t.preview.map((row, i) =>
      el("tr", {}, el("th", { scope: "row" }, String(t.previewLines[i])), ...row.map((v) => el("td", { class: "ellipsis", title: v }, v)))));
    $<HTMLTableElement>("preview-table").replaceChildren(el("caption", {}, `First ${t.preview.length} of ${t.rows} rows`), head, body);
  };

  // ---------- the schema ----------

  /** Why training cannot start with these choices ("" when it can). */
  const blocker = (): string => {
    if (!current) return "Load a CSV file to train.";
    if (label === "") return "Choose the label column: the header names do not single one out (none reads like a label, or several do).";
    if (classMode === "positive" && positive === "") return "Choose the positive class of the label.";
    if (classMode === "declared") {
      const list = parseList(declaredClasses);
      if (list.length < 2) return "Declare at least two classes of the label.";
      if (new Set(list).size !== list.length) return "The declared classes repeat a name.";
    }
    const features = current.columns.filter((c) => c.name !== label && choices.get(c.name)!.kind !== "ignore");
    if (features.length === 0) return "Use at least one column as a feature.";
    for (const c of features) {
      const ch = choices.get(c.name)!;
      if (ch.kind === "categorical" && ch.categories === "declared" && parseList(ch.levels).length === 0) {
        return `Type the declared categories of “${c.name}”.`;
      }
    }
    return "";
  };

  const buildSchema = (): SchemaFile => {
    const t = current!;
    const columns: SchemaColumn[] = t.columns.map((c) => {
      if (c.name === label) return { name: c.name, kind: "label" };
      const ch = choices.get(c.name)!;
      if (ch.kind === "ignore") return { name: c.name, kind: "ignore" };
      const col: SchemaColumn = { name: c.name, kind: ch.kind, missing: ch.missing, nullable: ch.nullable };
      // A proposed numeric column with a few text cells: its kind stays the core's proposal, so
      // those cells read as missing (a declared numeric column refuses text: NON_NUMERIC).
      if (ch.kind === "numeric" && ch.detected === "numeric" && ch.textAsMissing) delete (col as Partial<SchemaColumn>).kind;
      if (ch.kind === "numeric") col.fill = ch.fill;
      if (ch.kind === "categorical") {
        col.categories = ch.categories;
        if (ch.categories === "declared") col.levels = parseList(ch.levels);
      }
      return col;
    });
    const schema: SchemaFile = {
      format: "dpmargin-schema", version: 1,
      csv: tableLevel.csv ?? { delimiter: t.delimiter, decimal: ".", encoding: "utf-8", missingTokens: [] },
      label,
      maxLevels: tableLevel.maxLevels, hashBuckets: tableLevel.hashBuckets,
      columns,
    };
    if (classMode === "binary01") Object.assign(schema, { classSource: "binary01", classes: ["0", "1"] });
    else if (classMode === "discover") schema.classSource = "discover";
    else if (classMode === "positive") Object.assign(schema, { classSource: "positive", positive });
    else Object.assign(schema, { classSource: "declared", classes: parseList(declaredClasses) });
    return schema;
  };
  const buildSchemaOrNull = () => (current && blocker() === "" ? buildSchema() : null);

  const knownClasses = (): string[] | null => {
    if (classMode === "binary01") return ["0", "1"];
    if (classMode === "positive") return [positive, `not ${positive}`];
    if (classMode === "declared") return parseList(declaredClasses);
    return null;
  };

  /** Apply a schema file (exported by this app, `dpmargin schema`, or a model's) to the table. */
  const applySchema = (s: Record<string, unknown>): string[] => {
    const t = current!;
    const notes: string[] = [];
    if (s.format !== "dpmargin-schema" || s.version !== 1) throw new Error('not a dpmargin schema (format "dpmargin-schema", version 1)');
    if (typeof s.label === "string") {
      if (!t.header.includes(s.label)) throw new Error(`its label column “${s.label}” is not in this file's header`);
      setLabel(s.label, "Declared by the imported schema.");
    }
    const classes = Array.isArray(s.classes) ? (s.classes as string[]) : null;
    if (s.classSource === "positive" && typeof s.positive === "string") { classMode = "positive"; positive = s.positive; }
    else if (s.classSource === "binary01") classMode = "binary01";
    else if (classes) { classMode = "declared"; declaredClasses = classes.join(", "); }
    else if (s.classSource === "discover") classMode = "discover";
    if (typeof s.maxLevels === "number") tableLevel.maxLevels = s.maxLevels;
    if (typeof s.hashBuckets === "number") tableLevel.hashBuckets = s.hashBuckets;
    if (s.csv && typeof s.csv === "object") tableLevel.csv = s.csv as SchemaFile["csv"];
    for (const col of (Array.isArray(s.columns) ? s.columns : []) as SchemaColumn[]) {
      const ch = choices.get(col.name);
      if (!ch) { notes.push(`“${col.name}” is not in this file (skipped)`); continue; }
      if (col.kind === "label") continue;
      if (col.kind) ch.kind = col.kind as Kind;
      if (col.missing) ch.missing = col.missing;
      if (typeof col.nullable === "boolean") ch.nullable = col.nullable;
      if (typeof col.fill === "number") ch.fill = col.fill;
      if (col.levels) { ch.categories = "declared"; ch.levels = col.levels.join(", "); }
      else if (col.categories) ch.categories = col.categories;
    }
    const named = new Set(((s.columns ?? []) as SchemaColumn[]).map((c) => c.name));
    const unnamed = t.header.filter((h) => !named.has(h) && h !== label);
    if (unnamed.length) notes.push(`not in the schema, left as proposed: ${unnamed.map((h) => `“${h}”`).join(", ")}`);
    return notes;
  };

  // ---------- state changes ----------

  const resetChoices = (t: TableSummary) => {
    choices.clear();
    const proposed = new Map((t.schema?.columns ?? []).map((c) => [c.name, c]));
    for (const c of t.columns) {
      const p = proposed.get(c.name);
      const mine = p && p.kind !== "label" ? { kind: p.kind as Kind, reason: p.reason ?? "" } : proposedKind(c);
      const kind = mine.kind;
      choices.set(c.name, {
        kind, detected: kind, reason: mine.reason,
        missing: (p && p.kind !== "label" && p.missing) || (kind === "categorical" ? "level" : "indicator"),
        nullable: p && p.kind !== "label" && p.nullable !== undefined ? p.nullable : c.missing > 0,
        fill: p?.fill ?? 0,
        categories: (p?.categories as Categories | undefined) ?? "auto",
        levels: p?.levels?.join(", ") ?? "",
        textAsMissing: kind === "numeric" && c.text > 0,
      });
    }
    tableLevel = {
      maxLevels: t.schema?.maxLevels ?? 32, hashBuckets: t.schema?.hashBuckets ?? 16,
      csv: t.schema?.csv ?? null,
    };
  };

  const setLabel = (name: string, how: string) => {
    label = name;
    labelHow = how;
    labelSelect.value = name;
    classMode = name === "" ? "binary01" : defaultMode();
    positive = "";
    declaredClasses = "";
  };

  const render = (t: TableSummary, preset?: { label: string; positive: string }) => {
    resetChoices(t);
    labelSelect.replaceChildren(el("option", { value: "" }, "— choose the label column —"),
      ...t.columns.map((c) => el("option", { value: c.name }, `${c.name || "(unnamed)"}${c.kind === "text" ? " (text)" : ""}`)));
    if (preset && t.header.includes(preset.label)) {
      setLabel(preset.label, "Declared by the sample's description (public).");
      classMode = "positive";
      positive = preset.positive;
    } else if (t.schema?.label) {
      setLabel(t.schema.label, `Proposed by its header name (the core's rule: label, target, class, y, outcome, …). Change it if it is not the label.`);
    } else {
      setLabel("", "The header names do not single out the label (none reads like one — label, target, class, y, outcome, … — or several do): choose it. Training is disabled until you do.");
    }
    renderClasses();
    renderColumns();
    const text = t.columns.filter((c) => c.kind === "text").length;
    $("data-summary").replaceChildren(
      el("strong", { class: "ellipsis", title: t.name }, t.name), ` — ${t.rows} rows × ${t.header.length} columns, ${DELIMITERS[t.delimiter] ?? JSON.stringify(t.delimiter)}-separated, ${kb(t.bytes)}, read in ${Math.round(t.parseMs)} ms in the worker.`,
      text ? ` ${plural(text, "column")} with text.` : "");
    $("data-summary").dataset.rows = String(t.rows);
    $("data-loaded").hidden = false;
  };

  const changed = () => {
    renderCount();
    onChange();
  };

  // ---------- loading ----------

  const loadStatus = $("load-status");
  const loadCancel = $<HTMLButtonElement>("load-cancel");
  const load = async (source: Source, preset?: { label: string; positive: string }) => {
    const mine = ++loadGeneration;
    clearError(errorBox);
    document.body.dataset.dataState = "loading";
    $("data-section").setAttribute("aria-busy", "true");
    $("chosen-file").textContent = source.name;
    $("chosen-file").title = source.name;
    loadStatus.textContent = `Reading ${source.name}…`;
    delete loadStatus.dataset.bytes;
    delete loadStatus.dataset.rows;
    loadStatus.hidden = false;
    loadCancel.hidden = false;
    const size = source.kind === "file" ? source.file.size : null;
    try {
      const call = client.call<TableSummary>({ type: "load", source }, (reply: Reply) => {
        if (reply.type !== "load-progress" || mine !== loadGeneration) return;
        const p = reply.progress;
        const total = p.totalBytes ?? size;
        loadStatus.textContent = `Reading ${source.name}: ${kb(p.bytes)}${total ? ` of ${kb(total)} (${Math.floor((100 * p.bytes) / total)}%)` : ""}, ${p.rows.toLocaleString("en")} rows…`;
        loadStatus.dataset.bytes = String(p.bytes);
        loadStatus.dataset.rows = String(p.rows);
      });
      loadingId = call.id;
      const t = await call.done;
      if (mine !== loadGeneration) return;
      current = t;
      currentSource = source;
      render(t, preset);
      loadStatus.hidden = true;
      document.body.dataset.dataState = "loaded";
      hooks.onLoaded();
    } catch (error) {
      if (mine !== loadGeneration) return;
      current = null;
      currentSource = null;
      $("data-loaded").hidden = true;
      const e = error as WorkerError;
      if (e.code === "CANCELLED") {
        loadStatus.textContent = `Reading ${source.name} was cancelled. Nothing was loaded.`;
        document.body.dataset.dataState = "cancelled";
      } else {
        loadStatus.hidden = true;
        showError(errorBox, e, source.name);
        document.body.dataset.dataState = "error";
      }
      hooks.onLoaded();
    } finally {
      if (mine === loadGeneration) {
        loadingId = null;
        loadCancel.hidden = true;
        $("data-section").removeAttribute("aria-busy");
        onChange();
      }
    }
  };
  loadCancel.addEventListener("click", () => {
    if (loadingId !== null) void client.request({ type: "cancel", target: loadingId });
  });

  const fromFile = (file: File) => load({ kind: "file", file, name: file.name });
  const input = $<HTMLInputElement>("file-input");
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    if (file) void fromFile(file);
    input.value = "";  // picking the same file again reloads it
  });
  dropTarget($("drop-zone"), (file) => void fromFile(file));

  // ---------- editors ----------

  labelSelect.addEventListener("change", () => {
    setLabel(labelSelect.value, labelSelect.value === "" ? "Choose the label column." : "Chosen by you.");
    renderClasses();
    renderColumns();
    onChange();
  });
  modeSelect.addEventListener("change", () => {
    classMode = modeSelect.value as ClassMode;
    renderClasses();
    changed();
  });
  positiveSelect.addEventListener("change", () => {
    positive = positiveSelect.value;
    renderClasses();
    changed();
  });
  classesInput.addEventListener("input", () => {
    declaredClasses = classesInput.value;
    const c = summaryOf(label);
    $("class-rule").textContent = "";
    renderBalance(c);
    changed();
  });
  classesInput.addEventListener("change", () => { renderClasses(); changed(); });

  columnTable.addEventListener("change", (event) => {
    const target = event.target as HTMLInputElement | HTMLSelectElement;
    const name = target.closest<HTMLElement>("tr[data-column]")?.dataset.column;
    if (name === undefined) return;
    const ch = choices.get(name)!;
    const field = target.dataset.field;
    if (field === "kind") {
      ch.kind = target.value as Kind;
      ch.missing = ch.kind === "categorical" ? (ch.missing === "error" ? "error" : "level") : ch.missing === "level" ? "indicator" : ch.missing;
    } else if (field === "missing") ch.missing = target.value as Missing;
    else if (field === "nullable") ch.nullable = (target as HTMLInputElement).checked;
    else if (field === "categories") ch.categories = target.value as Categories;
    else if (field === "levels") ch.levels = target.value;
    if (field === "kind" || field === "categories") renderColumns();
    changed();
  });

  // ---------- schema export / import ----------

  $("schema-export").addEventListener("click", () => {
    if (!current) return;
    const stem = current.name.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "_") || "data";
    download(`${stem}-schema.json`, JSON.stringify(buildSchema(), null, 2) + "\n", "application/json");
  });
  const schemaInput = $<HTMLInputElement>("schema-file");
  schemaInput.addEventListener("change", async () => {
    const file = schemaInput.files?.[0];
    schemaInput.value = "";
    if (!file || !current) return;
    const note = $("schema-note");
    try {
      const notes = applySchema(JSON.parse(await file.text()) as Record<string, unknown>);
      renderClasses();
      renderColumns();
      note.textContent = `Schema ${file.name} applied.${notes.length ? " " + notes.join("; ") + "." : ""}`;
      note.classList.remove("error");
      document.body.dataset.schemaState = "applied";
    } catch (error) {
      note.textContent = `Schema ${file.name} not applied: ${(error as Error).message}`;
      note.classList.add("error");
      document.body.dataset.schemaState = "error";
    }
    onChange();
  });

  // ---------- samples ----------

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
      const schema = buildSchemaOrNull();
      if (!schema) return null;
      const features = current!.columns.filter((c) => c.name !== label && choices.get(c.name)!.kind !== "ignore").map((c) => c.name);
      return { schema, label, features, modelColumns: estimateWidth(), classes: knownClasses() };
    },
    blocker,
    table: () => current,
    source: () => currentSource,
    async reload() {
      if (currentSource) await client.request({ type: "load", source: currentSource });
    },
  };
}
