// The declared schema — only what the user chose or typed in the Data tab, or imported from a
// schema file — as the core's dpmargin-schema JSON: sent to the package as `schema` (train,
// preview, profile), exported for `dpmargin train --schema`, and imported back. The core's
// proposal and the local expectation of the private decisions are never part of it: what is
// not declared the run decides, publicly or privately (docs/reference/PRIVACY_SCHEMA.md "The schema").
import type { SchemaColumn } from "dpmargin";
import type { DeclaredSchema } from "../../protocol.ts";
import { $, download } from "../dom.ts";
import { parseList, type Categories, type DataState, type Kind } from "./state.ts";

/** The declarations as a schema file. */
export function declaredSchema(s: DataState): DeclaredSchema {
  const columns: DeclaredSchema["columns"] = [];
  for (const [name, d] of s.declared) {
    if (name === s.label) continue;  // the label's own kind is the core's
    const col: DeclaredSchema["columns"][number] = { name };
    if (d.kind) col.kind = d.kind;
    if (d.missing) col.missing = d.missing;
    if (d.nullable !== undefined) col.nullable = d.nullable;
    if (d.fill !== undefined) col.fill = d.fill;
    if (d.categories === "declared") {
      col.categories = "declared";
      col.levels = parseList(d.levels ?? "");
    } else if (d.categories) {
      col.categories = d.categories;
    }
    if (Object.keys(col).length > 1) columns.push(col);
  }
  const schema: DeclaredSchema = { format: "dpmargin-schema", version: 1, columns };
  if (s.imported.csv) schema.csv = s.imported.csv;
  if (s.label !== "" && s.labelHow !== "header") schema.label = s.label;
  if (s.imported.maxLevels !== undefined) schema.maxLevels = s.imported.maxLevels;
  if (s.imported.hashBuckets !== undefined) schema.hashBuckets = s.imported.hashBuckets;
  if (s.classMode === "binary01") Object.assign(schema, { classSource: "binary01", classes: ["0", "1"] });
  else if (s.classMode === "discover") schema.classSource = "discover";
  else if (s.classMode === "positive") Object.assign(schema, { classSource: "positive", positive: s.positive.trim() });
  else if (s.classMode === "declared") Object.assign(schema, { classSource: "declared", classes: parseList(s.declaredClasses) });
  return schema;
}

/** Apply a schema file (exported by this app, `dpmargin schema`, or a model's): importing it
 *  declares what it says. Returns notes for the user. */
export function applySchema(s: DataState, file: Record<string, unknown>): string[] {
  const t = s.table!;
  const notes: string[] = [];
  if (file.format !== "dpmargin-schema" || file.version !== 1) throw new Error('not a dpmargin schema (format "dpmargin-schema", version 1)');
  if (typeof file.label === "string") {
    if (!t.header.includes(file.label)) throw new Error(`its label column “${file.label}” is not in this file's header`);
    s.label = file.label;
    s.labelHow = "import";
  }
  const classes = Array.isArray(file.classes) ? (file.classes as string[]) : null;
  if (file.classSource === "positive" && typeof file.positive === "string") { s.classMode = "positive"; s.positive = file.positive; }
  else if (file.classSource === "binary01") s.classMode = "binary01";
  else if (classes) { s.classMode = "declared"; s.declaredClasses = classes.join(", "); }
  else if (file.classSource === "discover") s.classMode = "discover";
  if (typeof file.maxLevels === "number") s.imported.maxLevels = file.maxLevels;
  if (typeof file.hashBuckets === "number") s.imported.hashBuckets = file.hashBuckets;
  if (file.csv && typeof file.csv === "object") s.imported.csv = file.csv as DataState["imported"]["csv"];
  const named = new Set<string>();
  for (const col of (Array.isArray(file.columns) ? file.columns : []) as SchemaColumn[]) {
    if (!t.header.includes(col.name)) { notes.push(`“${col.name}” is not in this file (skipped)`); continue; }
    named.add(col.name);
    if (col.kind === "label") continue;
    const d = s.declared.get(col.name) ?? {};
    if (col.kind) d.kind = col.kind as Kind;
    if (col.missing) d.missing = col.missing;
    if (typeof col.nullable === "boolean") d.nullable = col.nullable;
    if (typeof col.fill === "number") d.fill = col.fill;
    if (col.levels) { d.categories = "declared"; d.levels = col.levels.join(", "); }
    else if (col.categories) d.categories = col.categories as Categories;
    s.declared.set(col.name, d);
  }
  const rest = t.header.filter((h) => !named.has(h) && h !== s.label);
  if (rest.length) notes.push(`not in the schema, left to the run: ${rest.map((h) => `“${h}”`).join(", ")}`);
  return notes;
}

/** The export button and the import picker. */
export function setupSchemaFile(s: DataState, hooks: { onImported: () => void }): void {
  $("schema-export").addEventListener("click", () => {
    if (!s.table) return;
    const stem = s.table.name.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "_") || "data";
    download(`${stem}-schema.json`, JSON.stringify(declaredSchema(s), null, 2) + "\n", "application/json");
  });
  const input = $<HTMLInputElement>("schema-file");
  input.addEventListener("change", async () => {
    const file = input.files?.[0];
    input.value = "";
    if (!file || !s.table) return;
    const note = $("schema-note");
    try {
      const notes = applySchema(s, JSON.parse(await file.text()) as Record<string, unknown>);
      note.textContent = `Schema ${file.name} applied: what it says is now declared.${notes.length ? " " + notes.join("; ") + "." : ""}`;
      note.classList.remove("error");
      document.body.dataset.schemaState = "applied";
    } catch (error) {
      note.textContent = `Schema ${file.name} not applied: ${(error as Error).message}`;
      note.classList.add("error");
      document.body.dataset.schemaState = "error";
    }
    hooks.onImported();
  });
}
