// `dpmargin predict --keep COL,… / --keep-all`: the input's own cells of some columns, per data
// row, so the predictions can be joined back to the file. The core's reader does not hand cells
// back to JavaScript, so this reads the file once more (streamed, RFC 4180 quoting) with the
// dialect the core detected (delimiter, encoding); blank lines are skipped as the core skips them.
import { createReadStream } from "node:fs";

// `indexOf`: the column's position, or the package's error naming it (dp.findColumn: every
// column listed, "did you mean").
export async function readColumns(path: string, dialect: { delimiter: string; encoding: "utf-8" | "latin1" },
  header: string[], names: string[] | "all", indexOf: (name: string) => number): Promise<{ names: string[]; cells: string[][] }> {
  const wanted = names === "all" ? header : names;
  const index = wanted.map(indexOf);
  const decoder = new TextDecoder(dialect.encoding === "latin1" ? "windows-1252" : "utf-8");
  const delimiter = dialect.delimiter;
  const rows: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;      // inside quotes
  let afterQuote = false;  // just read a quote inside quotes (an escaped "" or the end)
  let seenHeader = false;
  let any = false;         // the record has a character (a blank line has none)
  const endRecord = () => {
    record.push(cell);
    cell = "";
    if (any) {
      if (seenHeader) rows.push(index.map((j) => record[j] ?? ""));
      seenHeader = true;
    }
    record = [];
    any = false;
  };
  const consume = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (quoted) {
        if (afterQuote) {
          afterQuote = false;
          if (ch === '"') {
            cell += '"';
            continue;
          }
          quoted = false;  // the closing quote: fall through with ch
        } else if (ch === '"') {
          afterQuote = true;
          continue;
        } else {
          cell += ch;
          continue;
        }
      }
      if (ch === '"' && cell === "") {
        quoted = true;
        any = true;
      } else if (ch === delimiter) {
        record.push(cell);
        cell = "";
        any = true;
      } else if (ch === "\n") {
        endRecord();
      } else if (ch === "\r") {
        // CRLF or a lone CR: the \n (if any) ends the record
        if (text[i + 1] !== "\n" && i + 1 < text.length) endRecord();
      } else {
        cell += ch;
        any = true;
      }
    }
  };
  for await (const chunk of createReadStream(path)) consume(decoder.decode(chunk as Buffer, { stream: true }));
  consume(decoder.decode());
  if (afterQuote) quoted = false;
  if (cell !== "" || record.length > 0 || any) endRecord();
  return { names: wanted, cells: rows };
}
