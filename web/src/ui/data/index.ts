// Step 1: the data. A CSV is loaded (load.ts); the core's preview of the run (dp.previewCsv, in
// the worker) says how the run would decide every column and the label's classes, the model's
// width and the plan; the user declares what they want to (columns.ts, label.ts), and only that
// is sent as the run's `schema` (schema.ts). The app asks and displays: it decides nothing the
// core decides. The preview is asked again, after a short pause, whenever a declaration, an
// option or the held-out split changes (the settings step shows its plan).
import type { CsvPreview } from "dpmargin";
import type { DeclaredSchema, PreviewRequest, Source, TableSummary, WorkerError } from "../../protocol.ts";
import type { WorkerClient } from "../../worker-client.ts";
import { $, clearError, el, showError } from "../dom.ts";
import { setupColumns } from "./columns.ts";
import { setupLabel } from "./label.ts";
import { kb, setupLoading, type Preset } from "./load.ts";
import { declaredSchema, setupSchemaFile } from "./schema.ts";
import { emptyState, parseList, plural } from "./state.ts";

export type { Sample } from "./load.ts";

export interface DataSelection {
  /** What the user declared (only that): the run's `schema`. */
  schema: DeclaredSchema;
  /** The label column (declared, or proposed by its header name). */
  label: string;
  /** From the core's latest preview, when there is one: the training rows and the model's width
   *  (for the ledger's preview of what a run would add). */
  rows?: number;
  modelColumns?: number;
}

/** What the settings step gets: the core's preview (its plan), or why there is none. */
export type PreviewResult = { preview: CsvPreview } | { error: WorkerError } | null;

export interface DataView {
  /** The declarations, or null when training cannot start yet (see blocker). */
  selection(): DataSelection | null;
  /** Why Train is disabled ("" when it is not). */
  blocker(): string;
  table(): TableSummary | null;
  source(): Source | null;
  /** Re-send the current source to a fresh worker (after a restart). */
  reload(): Promise<void>;
  /** Ask the core for a new preview (an option or the split changed). */
  refreshPreview(): void;
}

const DELIMITERS: Record<string, string> = { ",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe" };

export function setupData(client: WorkerClient, hooks: {
  onChange: () => void;
  onLoaded: () => void;
  /** A new preview (or its error, or null without data). */
  onPreview: (result: PreviewResult) => void;
  /** The form's options and split, for the preview. */
  previewInputs: () => Omit<PreviewRequest, "schema">;
}): DataView {
  const s = emptyState();
  const previewError = $("preview-error");

  // ---------- the core's preview ----------

  let timer: ReturnType<typeof setTimeout> | undefined;
  // Every change (a declaration, an option, a newly loaded file) starts a new generation: an
  // answer of an older one, still on its way, is dropped (it may describe another file).
  let generation = 0;
  let pendingId: number | null = null;
  const request = async (mine: number) => {
    const call = client.call<CsvPreview>({ type: "preview", request: { schema: declaredSchema(s), ...hooks.previewInputs() } });
    pendingId = call.id;
    try {
      const preview = await call.done;
      if (mine !== generation) return;
      s.preview = preview;
      if (preview.schemaError) showError(previewError, preview.schemaError, "your declarations");
      else clearError(previewError);
      render();
      hooks.onPreview({ preview });
      document.body.dataset.previewState = "ready";
    } catch (error) {
      if (mine !== generation) return;  // superseded, and cancelled
      showError(previewError, error as WorkerError, "your declarations");
      hooks.onPreview({ error: error as WorkerError });
      document.body.dataset.previewState = "error";
    } finally {
      if (mine === generation) pendingId = null;
    }
    // What training needs (the columns used) follows the preview.
    hooks.onChange();
  };
  const refreshPreview = () => {
    clearTimeout(timer);
    const mine = ++generation;
    if (pendingId !== null) void client.request({ type: "cancel", target: pendingId }).catch(() => {});
    pendingId = null;
    if (!s.table) {
      hooks.onPreview(null);
      return;
    }
    document.body.dataset.previewState = "pending";
    timer = setTimeout(() => void request(mine), 150);
  };

  // ---------- the views ----------

  const changed = () => {
    columns.render();
    hooks.onChange();
    refreshPreview();
  };
  const columns = setupColumns(s, {
    onChange: () => {
      hooks.onChange();
      refreshPreview();
    },
  });
  const label = setupLabel(s, {
    onChange: () => {
      hooks.onChange();
      refreshPreview();
    },
    onLabel: changed,
  });
  const render = () => {
    label.render();
    columns.render();
  };
  setupSchemaFile(s, { onImported: () => { render(); changed(); } });

  const loaded = (t: TableSummary, source: Source, preset?: Preset) => {
    Object.assign(s, emptyState(), { table: t, source });
    const proposed = t.proposal.label;
    if (preset && t.header.includes(preset.label)) {
      Object.assign(s, { label: preset.label, labelHow: "sample", classMode: "positive", positive: preset.positive });
    } else if (proposed?.reason === "header name") {
      Object.assign(s, { label: proposed.column, labelHow: "header" });
    }
    clearError(previewError);
    label.reset();
    columns.render();
    const text = t.columns.filter((c) => c.kind === "text").length;
    $("data-summary").replaceChildren(
      el("strong", { class: "ellipsis", title: t.name }, t.name),
      ` — ${t.rows} rows × ${t.header.length} columns, ${DELIMITERS[t.delimiter] ?? JSON.stringify(t.delimiter)}-separated, ${kb(t.bytes)}, read in ${Math.round(t.parseMs)} ms in the worker.`,
      text ? ` ${plural(text, "column")} with text (local).` : "");
    $("data-summary").dataset.rows = String(t.rows);
    $("data-loaded").hidden = false;
    hooks.onLoaded();
    refreshPreview();
  };
  const loading = setupLoading(client, {
    onLoaded: loaded,
    onFailed: () => {
      Object.assign(s, emptyState());
      hooks.onLoaded();
      refreshPreview();
    },
    onSettled: () => hooks.onChange(),
  });

  // ---------- what training needs ----------

  const blocker = (): string => {
    if (!s.table) return "Load a CSV file to train.";
    if (s.label === "") return "Choose the label column: the header names do not single one out (none reads like a label, or several do).";
    if (s.classMode === "positive" && s.positive.trim() === "") return "Type the positive class of the label.";
    if (s.classMode === "declared") {
      const list = parseList(s.declaredClasses);
      if (list.length < 2) return "Declare at least two classes of the label.";
      if (new Set(list).size !== list.length) return "The declared classes repeat a name.";
    }
    for (const [name, d] of s.declared) {
      if (name !== s.label && d.categories === "declared" && parseList(d.levels ?? "").length === 0) {
        return `Type the declared categories of “${name}”.`;
      }
    }
    if (columns.featureCount().used === 0) return "Use at least one column as a feature.";
    return "";
  };

  return {
    selection: () => (blocker() === ""
      ? {
          schema: declaredSchema(s), label: s.label,
          ...(s.preview ? { rows: s.preview.rows } : {}),
          ...(s.preview?.modelColumns ? { modelColumns: s.preview.modelColumns.width } : {}),
        }
      : null),
    blocker,
    table: () => s.table,
    source: () => s.source,
    async reload() {
      if (s.source) await loading.reload(s.source);
    },
    refreshPreview,
  };
}
