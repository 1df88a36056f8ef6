// The label and its classes. The label column is pre-selected only when the core proposes it by
// its header name; otherwise Train stays disabled until the user picks it. The classes are left
// to the run (decided privately, with the core's public positive-class rule) unless the user
// declares them: one class against the rest (typed — never picked from the file's values), 0
// and 1, a typed list, or private discovery. Every rule's wording is the core's (the preview's
// `classes.rule`). The class balance is the user's own view of the file: local, not released.
import type { ColumnSummary } from "dpmargin";
import { $, el, percent } from "../dom.ts";
import { parseList, plural, shownPreview, type ClassMode, type DataState } from "./state.ts";

const HOW: Record<DataState["labelHow"], string> = {
  header: "Proposed by its header name (the core's public rule: label, target, class, y, outcome, …). Change it if it is not the label.",
  user: "Chosen by you.",
  sample: "Declared by the sample's description (public).",
  import: "Declared by the imported schema.",
  none: "The header names do not single out the label (none reads like one — label, target, class, y, outcome, … — or several do): choose it. Training is disabled until you do.",
};

export interface LabelView {
  /** The picker's options for a newly loaded table. */
  reset(): void;
  render(): void;
}

export function setupLabel(s: DataState, hooks: { onChange: () => void; onLabel: () => void }): LabelView {
  const labelSelect = $<HTMLSelectElement>("label-column");
  const modeSelect = $<HTMLSelectElement>("class-mode");
  const positiveInput = $<HTMLInputElement>("positive-class");
  const classesInput = $<HTMLInputElement>("declared-classes");

  const local = (): ColumnSummary | undefined => s.table?.columns.find((c) => c.name === s.label);

  const ruleText = (): string => {
    const classes = shownPreview(s)?.classes;
    const core = classes?.rule ?? "";
    if (s.classMode === "positive") {
      return s.positive.trim() === "" ? "Type the class to detect: it is trained against every other value. Training stays disabled until you do."
        : `“${s.positive.trim()}” against every other value (your declaration: public).`;
    }
    if (s.classMode === "declared" && parseList(s.declaredClasses).length < 2) {
      return "Type the class names, comma-separated (2 to 50). A value outside them stops training with BAD_LABEL.";
    }
    const positive = classes?.positive ? ` Positive class: “${classes.positive}”.` : "";
    if (s.classMode === "binary01") return `${core}${positive} You declare the classes 0 and 1: any other value stops training with BAD_LABEL.`;
    return `${core}${positive}`;
  };

  /** The chosen label's class balance in this file: the user's own view, never released. */
  const renderBalance = (c: ColumnSummary) => {
    const n = s.table!.rows;
    let rows: [string, number][];
    if (s.classMode === "positive" && s.positive.trim() !== "") {
      const p = s.positive.trim();
      const count = c.values.find((v) => v.value === p)?.count ?? 0;
      rows = [[p, count], [`not ${p}`, n - count]];
    } else {
      rows = c.values.map((v) => [v.value || "(empty)", v.count]);
    }
    const top = rows.reduce((m, r) => Math.max(m, r[1]), 0);
    $("class-balance").replaceChildren(
      el("h4", {}, "Class balance in this file ", el("span", { class: "tag" }, "your own view — local, not released")),
      el("table", { id: "balance-table" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "value (local)"), el("th", { scope: "col" }, "rows"), el("th", { scope: "col" }, "share"))),
        el("tbody", {}, ...rows.slice(0, 12).map(([v, k]) => el("tr", {},
          el("th", { scope: "row", class: "ellipsis", title: v }, v), el("td", {}, String(k)), el("td", {}, percent(k / n)))))),
      el("p", { class: "note" },
        "Majority-class rate: ", el("strong", { id: "majority-rate", "data-value": String(top / n) }, percent(top / n)),
        " — a model must beat this to be useful. ",
        c.distinctCapped ? `(More than ${c.distinct} distinct values: is this really the label?) ` : "",
        rows.length > 12 ? `(${rows.length - 12} more values not shown.) ` : "",
        "These counts are read exactly from your file, on this machine, for you; they are not part of any model or report. ",
        "Type the positive class or the class list yourself: a value you only know from this list is a value read off the data."));
  };

  const render = () => {
    const has = s.label !== "";
    labelSelect.value = s.label;
    $("classes-fields").hidden = !has;
    $("class-balance").hidden = !has;
    $("label-note").textContent = HOW[s.labelHow];
    if (!has) {
      $("class-rule").textContent = "";
      return;
    }
    modeSelect.value = s.classMode;
    if (positiveInput.value !== s.positive) positiveInput.value = s.positive;
    if (classesInput.value !== s.declaredClasses) classesInput.value = s.declaredClasses;
    $("positive-field").hidden = s.classMode !== "positive";
    $("declared-field").hidden = s.classMode !== "declared";
    const rule = $("class-rule");
    rule.textContent = ruleText();
    rule.dataset.source = shownPreview(s)?.classes?.source ?? "";
    const c = local();
    if (c) {
      $("label-note").textContent = HOW[s.labelHow] + (c.missing
        ? ` In this file (local): ${plural(c.missing, "row")} ha${c.missing === 1 ? "s" : "ve"} no label: training stops there with MISSING_VALUE.` : "");
      renderBalance(c);
    }
  };

  labelSelect.addEventListener("change", () => {
    s.label = labelSelect.value;
    s.labelHow = s.label === "" ? "none" : "user";
    s.classMode = "";
    s.positive = "";
    s.declaredClasses = "";
    render();
    hooks.onLabel();
  });
  modeSelect.addEventListener("change", () => {
    s.classMode = modeSelect.value as ClassMode;
    render();
    hooks.onChange();
  });
  positiveInput.addEventListener("input", () => {
    s.positive = positiveInput.value;
    render();
    hooks.onChange();
  });
  classesInput.addEventListener("input", () => {
    s.declaredClasses = classesInput.value;
    render();
    hooks.onChange();
  });

  return {
    reset() {
      const t = s.table!;
      labelSelect.replaceChildren(el("option", { value: "" }, "— choose the label column —"),
        ...t.columns.map((c) => el("option", { value: c.name }, c.name || "(unnamed)")));
      render();
    },
    render,
  };
}
