// The column table: one row per column with the run's decision and HOW it is made — declared by
// you, a public rule of the header and the options, or decided in the run, privately (then the
// kind and nullable shown are the local expectation from the exact counts) — what the file holds
// (local, not private), and an editor. Every choice in the editor starts at "the run decides";
// picking a value declares that one field (docs/reference/PRIVACY_SCHEMA.md "The schema"). The kinds, widths and
// decisions come from the core's preview: nothing here re-decides them.
import type { ColumnSummary, PreviewColumn } from "dpmargin";
import { $, el } from "../dom.ts";
import { decisionText, plural, shownPreview, type DataState, type Declared, type Kind } from "./state.ts";

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

const yesNo = (nullable: boolean | null | undefined) => (nullable ? "may be missing" : "never missing");

/** The decision cell: the kind, how it is decided, the core's reason; nullable likewise. */
function decisionCell(p: PreviewColumn | undefined, isLabel: boolean): HTMLElement {
  if (!p?.kind) return el("td", { class: "decision muted" }, "—");
  const kind = isLabel ? "label" : p.kind;
  const local = (text: string) => el("span", { class: "local" }, text, " ", el("span", { class: "tag" }, "local, not private"));
  const kindLine = el("span", { class: "decided", "data-decision": p.kindDecision ?? "" },
    el("span", { class: `type type-${kind}` }, kind), " — ", decisionText(p.kindDecision),
    p.kindDecision === "private" ? " " : p.reason && p.reason !== "declared" ? ` (${p.reason})` : "",
    p.kindDecision === "private" ? local(`expected: ${p.kind} (${p.reason})`) : "");
  const nullableLine = p.nullableDecision
    ? el("span", { class: "decided", "data-decision": p.nullableDecision, "data-field": "nullable" },
      ...(p.nullableDecision === "private"
        ? ["nullable: decided in the run, privately ", local(`expected: ${yesNo(p.nullable)}`)]
        : [`nullable: ${yesNo(p.nullable)}, declared by you`]))
    : null;
  return el("td", { class: "decision", "data-kind-decision": p.kindDecision ?? "", "data-nullable-decision": p.nullableDecision ?? "" },
    kindLine, nullableLine ? el("br") : null, ...(nullableLine ? [nullableLine] : []));
}

export interface ColumnsView {
  render(): void;
  /** Declared non-label columns used as features, by the preview. */
  featureCount(): { used: number; total: number };
}

export function setupColumns(s: DataState, hooks: { onChange: () => void }): ColumnsView {
  const columnTable = $<HTMLTableElement>("column-table");

  const editorRow = (c: ColumnSummary) => {
    const name = c.name;
    const p = shownPreview(s)?.columns.find((x) => x.name === name);
    const d: Declared = s.declared.get(name) ?? {};
    const isLabel = name === s.label;
    const shownName = name || "(unnamed)";
    const nameCell = el("th", { scope: "row", class: "ellipsis", title: shownName }, shownName);
    const cells = el("td", { class: "cells" }, cellsText(c));
    if (isLabel) {
      return el("tr", { "data-column": name, class: "label-row" }, nameCell, decisionCell(p, true), cells,
        el("td", { colspan: "4" }, el("span", { class: "type type-label" }, "label")));
    }
    const select = (field: string, value: string, options: [string, string][], aria: string) =>
      el("select", { "data-field": field, "aria-label": `${aria} of ${shownName}` },
        ...options.map(([v, t]) => el("option", { value: v, ...(v === value ? { selected: true } : {}) }, t)));
    // The effective kind: declared, else the run's (the preview's; the local expectation when private).
    const kind = (d.kind ?? p?.kind ?? "ignore") as Kind | "label";
    const runs = (what: string | undefined) => (p?.kindDecision === "public" ? `${what} (public rule)` : `the run decides (expected: ${what})`);
    const used = kind === "numeric" || kind === "categorical";
    const missingOptions: [string, string][] = kind === "categorical"
      ? [["level", "a “missing” level"], ["error", "refuse (MISSING_VALUE)"]]
      : [["indicator", "fill + 0/1 column"], ["constant", "fill only"], ["error", "refuse (MISSING_VALUE)"]];
    const missingDefault = p?.kind === kind && p.missing ? p.missing : kind === "categorical" ? "level" : "indicator";
    const nullableDefault = p?.nullableDecision === "private" ? `the run decides (expected: ${yesNo(p.nullable)})` : "the run decides";
    const categoriesDefault = p?.categories ? `default: ${p.categories}${p.categoriesAuto && p.categories !== "auto" ? " (auto, by the budget's public rule)" : ""}` : "default: auto";
    const catCell = kind === "categorical"
      ? el("td", {},
        select("categories", d.categories ?? "", [["", categoriesDefault], ["auto", "auto (discover or hash, by public numbers)"],
          ["discover", "discover privately"], ["hash", "hash (no values learnt)"], ["declared", "declared list (type it)"]], "Categories"),
        d.categories === "declared" ? el("input", {
          type: "text", "data-field": "levels", value: d.levels ?? "", placeholder: "a, b, c",
          "aria-label": `Declared categories of ${shownName}`,
        }) : null)
      : el("td", { class: "muted" }, "—");
    const width = p?.width !== undefined && used && (d.kind === undefined || d.kind === p.kind)
      ? el("span", { class: "width note", "data-width": String(p.width) }, ` → ${plural(p.width, "model column")}${p.widthEstimate ? " (estimate)" : ""}`)
      : null;
    return el("tr", { "data-column": name, class: used ? "" : "ignored" }, nameCell, decisionCell(p, false), cells,
      el("td", {}, select("kind", d.kind ?? "", [["", runs(p?.kind)], ["numeric", "numeric"], ["categorical", "categorical"], ["ignore", "ignore"]], "Use"), width),
      el("td", {}, used ? select("missing", d.missing ?? "", [["", `default: ${missingDefault}`], ...missingOptions], "Missing cells") : "—"),
      el("td", {}, used ? select("nullable", d.nullable === undefined ? "" : String(d.nullable),
        [["", nullableDefault], ["true", "may be missing"], ["false", "never missing"]], "Nullable") : "—"),
      catCell);
  };

  const featureCount = () => {
    const preview = shownPreview(s);
    const columns = s.table?.columns ?? [];
    let used = 0;
    for (const c of columns) {
      if (c.name === s.label) continue;
      const kind = s.declared.get(c.name)?.kind ?? preview?.columns.find((x) => x.name === c.name)?.kind;
      if (kind === "numeric" || kind === "categorical") used++;
    }
    return { used, total: columns.length - (s.label ? 1 : 0) };
  };

  const renderCount = () => {
    const preview = shownPreview(s);
    const { used, total } = featureCount();
    const e = preview?.modelColumns;
    const box = $("feature-count");
    box.textContent = `${used} of ${total} columns used as features` +
      (e ? ` → ${plural(e.width, "model column")}${e.estimate ? " (an estimate: discovered levels counted from your file's values — local, not private)" : ""}` : "");
    box.dataset.width = e ? String(e.width) : "";
    box.dataset.estimate = e ? String(e.estimate) : "";
  };

  /** The preview table's "use" row: each column's kind as the run would decide it. */
  const renderPreviewTable = () => {
    const t = s.table!;
    const preview = shownPreview(s);
    const kindOf = (name: string) => (name === s.label ? "label"
      : s.declared.get(name)?.kind ?? preview?.columns.find((x) => x.name === name)?.kind ?? "ignore");
    const head = el("thead", {},
      el("tr", {}, el("th", { scope: "col" }, "line"), ...t.header.map((h) => el("th", { scope: "col", class: "ellipsis", title: h || "(unnamed)" }, h || "(unnamed)"))),
      el("tr", { class: "types" }, el("th", { scope: "row" }, "use"), ...t.columns.map((c) => {
        const k = kindOf(c.name);
        return el("td", {}, el("span", { class: `type type-${k}` }, k));
      })));
    const body = el("tbody", {}, ...t.preview.map((row, i) =>
      el("tr", {}, el("th", { scope: "row" }, String(t.previewLines[i])), ...row.map((v) => el("td", { class: "ellipsis", title: v }, v)))));
    $<HTMLTableElement>("preview-table").replaceChildren(el("caption", {}, `First ${t.preview.length} of ${t.rows} rows (local)`), head, body);
  };

  const render = () => {
    const t = s.table!;
    // Keep the focus (and the caret) in a field being typed in across a re-render.
    const active = document.activeElement as HTMLInputElement | null;
    const focus = active && columnTable.contains(active)
      ? { column: active.closest<HTMLElement>("tr[data-column]")?.dataset.column, field: active.dataset.field, at: active.selectionStart }
      : null;
    columnTable.replaceChildren(
      el("caption", {}, "Columns: how the run decides each (declared by you, a public rule, or privately in the run), what your file holds (local), and your declarations"),
      el("thead", {}, el("tr", {}, ...["column", "the run's decision", "in this file (local, not private)", "use as", "missing cells", "nullable", "categories"]
        .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...t.columns.map(editorRow)));
    renderCount();
    renderPreviewTable();
    if (focus?.column !== undefined && focus.field) {
      const again = [...columnTable.querySelectorAll<HTMLInputElement>(`[data-field="${focus.field}"]`)]
        .find((x) => x.closest<HTMLElement>("tr[data-column]")?.dataset.column === focus.column);
      again?.focus();
      if (again && focus.at !== null && again.type === "text") again.setSelectionRange(focus.at, focus.at);
    }
  };

  columnTable.addEventListener("change", (event) => {
    const target = event.target as HTMLInputElement | HTMLSelectElement;
    const name = target.closest<HTMLElement>("tr[data-column]")?.dataset.column;
    if (name === undefined) return;
    const d: Declared = s.declared.get(name) ?? {};
    const value = target.value;
    const field = target.dataset.field;
    if (field === "kind") {
      d.kind = value === "" ? undefined : (value as Kind);
      // A missing strategy of the other kind no longer applies.
      const fits = d.kind === "categorical" ? d.missing === "level" || d.missing === "error" : d.missing !== "level";
      if (d.kind !== undefined && !fits) d.missing = undefined;
      if (d.kind !== "categorical" && d.kind !== undefined) { d.categories = undefined; d.levels = undefined; }
    } else if (field === "missing") d.missing = value === "" ? undefined : (value as Declared["missing"]);
    else if (field === "nullable") d.nullable = value === "" ? undefined : value === "true";
    else if (field === "categories") d.categories = value === "" ? undefined : (value as Declared["categories"]);
    else if (field === "levels") d.levels = value;
    s.declared.set(name, d);
    if (field === "kind" || field === "categories") render();
    hooks.onChange();
  });
  // Levels are typed: update on input too (the preview follows after a short pause).
  columnTable.addEventListener("input", (event) => {
    const target = event.target as HTMLInputElement;
    if (target.dataset.field !== "levels") return;
    const name = target.closest<HTMLElement>("tr[data-column]")?.dataset.column;
    if (name === undefined) return;
    const d: Declared = s.declared.get(name) ?? {};
    d.levels = target.value;
    s.declared.set(name, d);
    hooks.onChange();
  });

  return { render, featureCount };
}
