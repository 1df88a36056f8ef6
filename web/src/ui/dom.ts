// Small DOM helpers shared by the app's views. No framework: the page is a few forms and tables.
import type { WorkerError } from "../protocol.ts";

export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from index.html`);
  return el as T;
};

type Child = Node | string | null | undefined | false;

/** Create an element: el("td", { class: "x", "data-key": "y" }, "text", child). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** Numbers for people: the package's one format (explain.ts formatNumber: 6 significant digits,
 *  exponent form when very large or small), so the app's numbers read as the package's texts. */
export { formatNumber as fmt } from "dpmargin/explain";

export const percent = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(2)}%` : "—");

export function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** Show a typed error ({code, message}) in an error box; the rest of the page keeps working. */
export function showError(box: HTMLElement, error: WorkerError, context?: string): void {
  box.replaceChildren(
    el("p", {}, el("code", { class: "code" }, error.code), " ", context ? `${context}: ` : "", error.message),
  );
  box.dataset.code = error.code;
  box.hidden = false;
}

export function clearError(box: HTMLElement): void {
  box.hidden = true;
  box.replaceChildren();
  delete box.dataset.code;
}

/** Offer `content` as a file download (a blob: URL of this page: nothing is sent anywhere). */
export function download(name: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = el("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A drop target around a file input: dropping a file behaves like picking it. */
export function dropTarget(zone: HTMLElement, onFile: (file: File) => void): void {
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("dragging");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("dragging");
    const file = event.dataTransfer?.files[0];
    if (file) onFile(file);
  });
}

/** A table from a header and rows of cells. */
export function table(target: HTMLTableElement, head: string[], rows: (string | Node)[][], caption?: string): void {
  target.replaceChildren(
    ...(caption ? [el("caption", {}, caption)] : []),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c))))),
  );
}
