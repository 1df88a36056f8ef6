// Loading a CSV: a drop, the file picker or a shipped sample, read in the worker (bytes and
// rows shown while it reads, with a Cancel). The worker answers with the core's preview of the
// table with nothing declared (TableSummary.proposal) and the SHA-256 of its bytes.
import type { Reply, Source, TableSummary, WorkerError } from "../../protocol.ts";
import type { WorkerClient } from "../../worker-client.ts";
import { $, clearError, dropTarget, el, showError } from "../dom.ts";

/** An entry of public/samples/samples.json (the list is data: add a file and an entry). */
export interface Sample {
  id: string; file: string; title: string; rows: number; features: number;
  label: string; positive: string; licence: string; attribution: string; source: string;
}

/** A sample's public description: its label and positive class (declared, not read off the file). */
export type Preset = { label: string; positive: string };

export const kb = (bytes: number) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`);

export interface Loading {
  /** Read `source` again (a fresh worker after a restart). */
  reload(source: Source): Promise<void>;
}

export function setupLoading(client: WorkerClient, hooks: {
  onLoaded: (table: TableSummary, source: Source, preset?: Preset) => void;
  onFailed: () => void;
  onSettled: () => void;
}): Loading {
  let generation = 0;
  let loadingId: number | null = null;
  let samples: Sample[] = [];
  const errorBox = $("data-error");
  const status = $("load-status");
  const cancel = $<HTMLButtonElement>("load-cancel");

  const load = async (source: Source, preset?: Preset) => {
    const mine = ++generation;
    clearError(errorBox);
    document.body.dataset.dataState = "loading";
    $("data-section").setAttribute("aria-busy", "true");
    $("chosen-file").textContent = source.name;
    $("chosen-file").title = source.name;
    status.textContent = `Reading ${source.name}…`;
    delete status.dataset.bytes;
    delete status.dataset.rows;
    status.hidden = false;
    cancel.hidden = false;
    const size = source.kind === "file" ? source.file.size : null;
    try {
      const call = client.call<TableSummary>({ type: "load", source }, (reply: Reply) => {
        if (reply.type !== "load-progress" || mine !== generation) return;
        const p = reply.progress;
        const total = p.totalBytes ?? size;
        status.textContent = `Reading ${source.name}: ${kb(p.bytes)}${total ? ` of ${kb(total)} (${Math.floor((100 * p.bytes) / total)}%)` : ""}, ${p.rows.toLocaleString("en")} rows…`;
        status.dataset.bytes = String(p.bytes);
        status.dataset.rows = String(p.rows);
      });
      loadingId = call.id;
      const t = await call.done;
      if (mine !== generation) return;
      status.hidden = true;
      hooks.onLoaded(t, source, preset);
      document.body.dataset.dataState = "loaded";
    } catch (error) {
      if (mine !== generation) return;
      $("data-loaded").hidden = true;
      const e = error as WorkerError;
      if (e.code === "CANCELLED") {
        status.textContent = `Reading ${source.name} was cancelled. Nothing was loaded.`;
        document.body.dataset.dataState = "cancelled";
      } else {
        status.hidden = true;
        showError(errorBox, e, source.name);
        document.body.dataset.dataState = "error";
      }
      hooks.onFailed();
    } finally {
      if (mine === generation) {
        loadingId = null;
        cancel.hidden = true;
        $("data-section").removeAttribute("aria-busy");
        hooks.onSettled();
      }
    }
  };
  cancel.addEventListener("click", () => {
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

  // The sample list is data (public/samples/samples.json), fetched from this origin.
  const box = $("samples");
  fetch(new URL("samples/samples.json", document.baseURI)).then((r) => (r.ok ? r.json() : [])).then((list: Sample[]) => {
    samples = list;
    box.replaceChildren(...samples.map((s) => el("div", { class: "sample" },
      el("button", { type: "button", class: "secondary", "data-sample": s.id }, `Try a sample: ${s.title}`),
      el("span", { class: "note" }, ` ${s.rows} rows, ${s.features} features, label “${s.label}”. ${s.attribution}. Licence ${s.licence}.`))));
  }).catch(() => { /* offline before the list arrived: no sample buttons */ });
  box.addEventListener("click", (event) => {
    const id = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-sample]")?.dataset.sample;
    const s = samples.find((x) => x.id === id);
    if (!s) return;
    void load({ kind: "url", url: new URL(`samples/${s.file}`, document.baseURI).href, name: s.file },
      { label: s.label, positive: s.positive });
  });

  return {
    async reload(source) {
      await client.request({ type: "load", source });
    },
  };
}
