// The streaming CSV path beyond the fixture corpus (the core's reader fed by wasm/src/csv/):
// chunk boundaries, the passes and their buffer in wasm memory, early stops and closed sources,
// cancellation, and training from a CSV against training from the arrays readCsv returns.
import { load, csvFile, DpMarginError } from "dpmargin";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { separable, toCsv, mulberry32 } from "./synthetic.js";

const TRAIN = { epsilon: 1, delta: 1e-5, seed: 3, maxIterations: 20 };
const encoder = new TextEncoder();

/** `size`-byte pieces; `log` records the offset of every piece handed out, `closed` whether the
 *  consumer closed the stream (early exit runs the generator's finally). */
function pieces(bytes, size, log, closed) {
  return {
    async *open() {
      try {
        for (let i = 0; i < bytes.length; i += size) {
          log?.push(i);
          yield bytes.subarray(i, i + size);
        }
      } finally {
        if (closed) closed.count++;
      }
    },
  };
}

async function codeOf(promise) {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DpMarginError);
    return error;
  }
  throw new Error("expected a DpMarginError");
}

let dp;
beforeAll(async () => {
  dp = await load();
});

// ~3000 rows, CRLF, quoted fields with CRLF/LF breaks, escaped quotes and 2-, 3- and 4-byte
// characters: longer than the dialect sample, so later chunks cut rows, quotes and characters.
function awkward(rows, bad) {
  const rand = mulberry32(9);
  const words = ["é", "中文", "🙂", 'say ""hi""', "a,b", "x\r\ny", "p\nq", "plain"];
  const lines = ["größe,note,温度,label"];
  for (let i = 0; i < rows; i++) {
    const note = `"${words[i % words.length]} ${i}"`;
    const a = (rand() * 10 - 5).toFixed(4);
    const b = i === bad ? "oops" : ` ${(rand() * 3).toExponential(3)} `;
    lines.push(`${a},${note},${b},${i % 3 === 0 ? 1 : 0}`);
  }
  return "\uFEFF" + lines.join("\r\n") + "\r\n";
}

describe("chunk boundaries never change the result", () => {
  const text = awkward(3000, -1);
  const bytes = encoder.encode(text);
  const options = { label: "label", ignore: ["note"] };
  // One text cell among 3000 numbers reads as missing by default; declared numeric, it is an error.
  const strict = { ...options, schema: { columns: [{ name: "温度", kind: "numeric" }] } };
  let reference;
  beforeAll(async () => {
    reference = await dp.readCsv(text, options);
  });

  test("the text source reads every row", async () => {
    expect(reference.table.rows).toBe(3000);
    expect(reference.featureNames).toEqual(["größe", "温度"]);
    expect(reference.features).toHaveLength(6000);
    const summary = await dp.summarizeCsv(text, { previewRows: 2 });
    expect(summary.newline).toBe("\r\n");
    expect(summary.rows).toBe(3000);
    expect(summary.preview[1][1]).toBe("中文 1");
  });

  test.each([1, 2, 3, 7, 64, 4096, 1 << 20])("%i-byte pieces", async (size) => {
    const table = await dp.readCsv(pieces(bytes, size), options);
    expect(table).toEqual(reference);
  });

  test.each([1, 5, 333])("an error's line number with %i-byte pieces", async (size) => {
    const bad = encoder.encode(awkward(3000, 2500));
    const error = await codeOf(dp.readCsv(pieces(bad, size), strict));
    const fromText = await codeOf(dp.readCsv(awkward(3000, 2500), strict));
    expect(error.code).toBe("NON_NUMERIC");
    expect(error.message).toBe(fromText.message);
    // Data row 2500 is on line 2502, plus one for each earlier note with a line break (x\r\ny, p\nq).
    const breaks = [...Array(2500).keys()].filter((i) => i % 8 === 5 || i % 8 === 6).length;
    expect(error.message).toContain(`line ${2502 + breaks},`);
    expect(error.message).toContain('column "温度"');
  });

  test("the same text cell without the declaration: read as missing, with an indicator column", async () => {
    const table = await dp.readCsv(pieces(encoder.encode(awkward(3000, 2500)), 333), options);
    expect(table.featureNames).toEqual(["größe", "温度", "温度: missing"]);
    expect(table.table.schema.columns.find((c) => c.name === "温度").kind).toBe("numeric");
    expect(table.features[2500 * 3 + 2]).toBe(1);
    expect(table.features[2500 * 3 + 1]).toBe(0);  // the public fill
  });

  test("a file on disk and a Blob give the same table", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dpmargin-csv-"));
    writeFileSync(join(dir, "a.csv"), bytes);
    expect(await dp.readCsv(csvFile(join(dir, "a.csv")), options)).toEqual(reference);
    expect(await dp.readCsv(new Blob([bytes]), options)).toEqual(reference);
  });
});

describe("csvFile: a file in reused 1 MiB chunks", () => {
  // 3.5 MB of varied bytes: more than two buffers' worth, a last partial chunk.
  const big = new Uint8Array(3_500_001);
  const rand = mulberry32(9);
  for (let i = 0; i < big.length; i++) big[i] = Math.floor(rand() * 256);
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-chunks-"));
  const path = join(dir, "big.bin");
  writeFileSync(path, big);

  test("the chunks, each copied before the next is asked for, are the file", async () => {
    const copies = [];
    for await (const chunk of csvFile(path).open()) {
      expect(chunk.length).toBeGreaterThan(0);
      expect(chunk.length).toBeLessThanOrEqual(1 << 20);
      copies.push(Uint8Array.from(chunk));
    }
    expect(copies.length).toBe(4);
    expect(Buffer.concat(copies).equals(Buffer.from(big))).toBe(true);
  });

  test("an early stop closes the file (it reads again from the start), a missing file is BAD_PARAMETER", async () => {
    for await (const chunk of csvFile(path).open()) {
      expect(chunk[0]).toBe(big[0]);
      break;
    }
    let first = null;
    for await (const chunk of csvFile(path).open()) {
      first = Uint8Array.from(chunk.subarray(0, 16));
      break;
    }
    expect(Array.from(first)).toEqual(Array.from(big.subarray(0, 16)));
    const error = await codeOf(dp.readCsv(csvFile(join(dir, "absent.csv")), { label: "label" }));
    expect(error.code).toBe("BAD_PARAMETER");
    expect(error.message).toMatch(/cannot read .*absent\.csv.*ENOENT/);
    const isDir = await codeOf(dp.readCsv(csvFile(dir), { label: "label" }));
    expect(isDir.code).toBe("BAD_PARAMETER");
    expect(isDir.message).toMatch(/EISDIR/);
  });
});

test("byte streams: a 2.7 MB Blob and a plain ReadableStream give the table the text gives", async () => {
  // ~2.7 MB: many chunks, a partial last one.
  const text = toCsv(separable(20000, 12, 0.1, 20, 11));
  const bytes = encoder.encode(text);
  expect(bytes.length).toBeGreaterThan(2.5 * (1 << 20));
  const options = { label: "label" };
  const reference = await dp.readCsv(text, options);
  expect(reference.table.rows).toBe(20000);
  expect(await dp.readCsv(new Blob([bytes]), options)).toEqual(reference);
  // A source whose open() returns a ReadableStream (chunks of 100 kB, no BYOB reader).
  const plain = {
    open: () => new ReadableStream({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 100_000) controller.enqueue(bytes.slice(at, at + 100_000));
        controller.close();
      },
    }),
  };
  expect(() => plain.open().getReader({ mode: "byob" })).toThrow();
  expect(await dp.readCsv(plain, options)).toEqual(reference);
});

describe("encodings", () => {
  test.each([
    ["UTF-16 BE", [0xfe, 0xff, 0, 0x61], /UTF-16/],
    ["invalid byte in a data row", [...encoder.encode("a,label\n1,1\n"), 0xff, ...encoder.encode(",0\n")], /at byte 12, line 3/],
    ["ends inside a character", [...encoder.encode("a,label\n1,1\n2,"), 0xe4, 0xb8], /at byte 14, line 3/],
  ])("%s → CSV_PARSE", async (_, list, pattern) => {
    const bytes = Uint8Array.from(list);
    for (const size of [1, 2, 1000]) {
      const error = await codeOf(dp.readCsv(pieces(bytes, size), { label: "label" }));
      expect(error.code).toBe("CSV_PARSE");
      expect(error.message).toMatch(pattern);
    }
  });

  test("Latin-1 bytes: refused with the hint, read with encoding latin1", async () => {
    const bytes = Uint8Array.from([...encoder.encode("name,x,label\n"), 0x4d, 0xfc, ...encoder.encode("ller,1,1\nCaf"),
      0xe9, ...encoder.encode(",2,0\n")]);
    const error = await codeOf(dp.readCsv(pieces(bytes, 3), { label: "label" }));
    expect(error.message).toMatch(/Latin-1\/Windows-1252.*encoding "latin1"/);
    const table = await dp.readCsv(pieces(bytes, 3), { label: "label", encoding: "latin1" });
    // Two levels: one 0/1 column for the second (issue 29 item 7).
    expect(table.featureNames).toEqual(["name: Müller", "x"]);
  });
});

test("the fill writes straight into wasm memory: exact values, labels ±1 of the positive class", async () => {
  const text = "a,b,y\n" + Array.from({ length: 500 }, (_, i) => `${i},${-i},${i % 2 ? "yes" : "no"}`).join("\n");
  const before = dp.memoryBytes;
  const table = await dp.readCsv(pieces(encoder.encode(text), 100), { label: "y", positive: "yes" });
  expect(table.table.rows).toBe(500);
  expect(table.columns).toBe(2);
  expect(Array.from(table.features.subarray(2 * 499, 2 * 500))).toEqual([499, -499]);
  expect(table.labels[0]).toBe(-1);
  expect(table.labels[499]).toBe(1);
  expect(table.table.label).toMatchObject({ column: "y", positive: "yes" });
  // A wider read in 4 KiB pieces (each copied through a fresh view of the buffer in wasm memory).
  const wide = "y," + Array.from({ length: 200 }, (_, j) => `c${j}`).join(",") + "\n"
    + Array.from({ length: 4000 }, (_, i) => `${i % 2},` + Array.from({ length: 200 }, (_, j) => (i + j) % 97).join(",")).join("\n");
  const big = await dp.readCsv(pieces(encoder.encode(wide), 4096), { label: "y" });
  expect(dp.memoryBytes).toBeGreaterThanOrEqual(before);
  expect(big.features[3999 * 200 + 199]).toBe((3999 + 199) % 97);
  expect(big.labels[3999]).toBe(1);
});

test("a source that changes between the passes is refused", async () => {
  let opened = 0;
  const source = {
    async *open() {
      opened++;
      yield encoder.encode(opened === 1 ? "a,y\n1,1\n2,0\n" : "a,y\n1,1\n2,0\n3,1\n");
    },
  };
  const error = await codeOf(dp.readCsv(source, { label: "y" }));
  expect(error.code).toBe("CSV_PARSE");
  expect(error.message).toMatch(/changed/);
});

test("an error stops the read early and closes the source; summarizeCsv lists column kinds", async () => {
  const text = "id,x,empty,label\n" + Array.from({ length: 5000 }, (_, i) => `r${i},${i / 3},,${i % 2}`).join("\n");
  const ragged = encoder.encode(text.replace("\nr5,", "\nr5,1,"));
  const pulled = [];
  const closed = { count: 0 };
  const error = await codeOf(dp.readCsv(pieces(ragged, 1000, pulled, closed), { label: "label" }));
  expect(error.code).toBe("RAGGED_ROW");
  expect(error.message).toMatch(/line 7 has 5 fields; the header has 4/);
  expect(pulled.length).toBeLessThan(5);
  expect(closed.count).toBe(1);
  // The same for the training path and a failing schema.
  const closedTrain = { count: 0 };
  await codeOf(dp.trainCsv(pieces(ragged, 1000, [], closedTrain), { label: "label" }, TRAIN));
  expect(closedTrain.count).toBe(1);

  const summary = await dp.summarizeCsv(pieces(encoder.encode(text), 1000), { previewRows: 5 });
  expect(summary.header).toEqual(["id", "x", "empty", "label"]);
  expect(summary.preview).toHaveLength(5);
  expect(summary.rows).toBe(5000);
  expect(summary.columns.map((c) => c.kind)).toEqual(["text", "numeric", "empty", "numeric"]);
  expect(summary.schema.columns.map((c) => c.kind)).toEqual(["ignore", "numeric", "ignore", "label"]);
  const semi = await dp.summarizeCsv("a;b\n1;x\n");
  expect(semi.delimiter).toBe(";");
  expect((await codeOf(dp.summarizeCsv(""))).code).toBe("CSV_PARSE");
});

test("too large: OUT_OF_MEMORY before the table is allocated", async () => {
  const text = "a,b,c,label\n" + "1,2,3,1\n4,5,6,0\n".repeat(4096);
  const before = dp.memoryBytes;
  const error = await codeOf(dp.trainCsv(text, { label: "label", maxBytes: 1e5 }, TRAIN));
  expect(error.code).toBe("OUT_OF_MEMORY");
  expect(error.message).toMatch(/8192 rows × \(3 model columns \+ 1\) × 4 bytes\), more than the limit/);
  expect(error.message).toMatch(/To train, use fewer model columns \(the features or ignore options/);  // what to do
  expect(dp.memoryBytes).toBe(before);
});

test("an open quote stops at the row-length cap, in linear time", async () => {
  const chunk = encoder.encode("x".repeat(1 << 20));
  let served = 0;
  const source = {
    async *open() {
      yield encoder.encode('a,label\n1,1\n"');
      for (;;) {
        served++;
        yield chunk;
      }
    },
  };
  const started = Date.now();
  const error = await codeOf(dp.readCsv(source, { label: "label" }));
  expect(error.code).toBe("CSV_PARSE");
  expect(error.message).toMatch(/line 3 is longer than 33554432 bytes/);
  expect(served).toBeLessThan(40);
  expect(Date.now() - started).toBeLessThan(20_000);
}, 30_000);

test("cancellation: CANCELLED while reading, and the module still trains", async () => {
  const text = toCsv(separable(3000, 5, 0.1, 0, 4));
  const controller = new AbortController();
  const csv = { label: "label", onProgress: (p) => { if (p.rows > 500) controller.abort(); } };
  const error = await codeOf(dp.trainCsv(pieces(encoder.encode(text), 4096), csv, { ...TRAIN, signal: controller.signal }));
  expect(error.code).toBe("CANCELLED");
  const { report } = await dp.trainCsv(text, { label: "label" }, TRAIN);
  expect(report.plan.n).toBe(3000);
});

test("progress reports every pass", async () => {
  const text = toCsv(separable(2000, 5, 0.1, 0, 4));
  const events = [];
  await dp.readCsv(pieces(encoder.encode(text), 8192), { label: "label", onProgress: (p) => events.push(p) });
  expect(events.some((e) => e.pass === "scan") && events.some((e) => e.pass === "fill")).toBe(true);
  expect(events.some((e) => e.pass === "count")).toBe(false);  // nothing to discover
  expect(events.at(-1)).toMatchObject({ pass: "fill", rows: 2000, bytes: encoder.encode(text).length });
  // A text column to discover adds the count pass.
  const withText = "c,label\n" + Array.from({ length: 3000 }, (_, i) => `${["a", "b"][i % 2]},${i % 2}`).join("\n");
  const passes = new Set();
  await dp.trainCsv(withText, { label: "label", categories: "discover", onProgress: (p) => passes.add(p.pass) }, TRAIN);
  expect([...passes]).toEqual(["scan", "count", "fill"]);
});

describe("training from a CSV equals training from the arrays readCsv returns", () => {
  const table = separable(800, 12, 0.1, 8, 6);
  const text = toCsv(table);

  test("trainCsv with readCsv's schema declared and train(readCsv) give identical models", async () => {
    // readCsv's schema is read off the exact cells (a local read); declared, it makes the CSV run
    // ask nothing of the cells, so both runs draw the same noise for the same mechanism.
    const parsed = await dp.readCsv(text, { label: "label" });
    const viaCsv = await dp.trainCsv(text, { label: "label", schema: parsed.table.schema }, TRAIN);
    expect(viaCsv.report.plan.schemaCoordinates).toBeUndefined();
    const viaArrays = await dp.train(parsed, TRAIN);
    expect(Array.from(viaCsv.model.weights)).toEqual(Array.from(viaArrays.model.weights));
    expect(viaCsv.model.intercept).toBe(viaArrays.model.intercept);
    expect(viaCsv.report.selectedMargin).toBe(viaArrays.report.selectedMargin);
    expect(viaCsv.model.label).toEqual({ column: "label", positive: "1" });
    expect(viaCsv.model.schema.classes).toEqual(["0", "1"]);
  });

  test("predictCsv equals predict, and returns the true labels", async () => {
    const { model } = await dp.trainCsv(text, { label: "label" }, TRAIN);
    const parsed = await dp.readCsv(text, { label: "label" });
    const direct = model.predict(parsed.features);
    const viaCsv = await model.predictCsv(text, { label: "label" });
    expect(Array.from(viaCsv.scores)).toEqual(Array.from(direct.scores));
    expect(Array.from(viaCsv.truth)).toEqual(Array.from(parsed.labels));
    // Without a label column, columns other than the model's are not read at all (here, text).
    const extra = text.trim().split("\n").map((line, i) => (i === 0 ? line.replace(",label", ",comment") : line.replace(/,[01]$/, ",hello"))).join("\n");
    const noLabel = await model.predictCsv(extra);
    expect(noLabel.truth).toBeNull();
    expect(Array.from(noLabel.scores)).toEqual(Array.from(direct.scores));
  });

  test("predictCsv names a model feature missing from the file", async () => {
    const { model } = await dp.trainCsv(text, { label: "label" }, TRAIN);
    const error = await codeOf(model.predictCsv("x0,x1\n1,2\n"));
    expect(error.code).toBe("BAD_PARAMETER");
    expect(error.message).toContain('"x2"');
  });
});

describe("options are checked before anything is read", () => {
  const untouchable = { open() { throw new Error("must not be opened"); } };
  test.each([
    [{ label: "y", bogus: 1 }, TRAIN, "bogus"],
    [{ label: "y", missing: { impute: Number.NaN } }, TRAIN, "missing"],
    [{ label: "y", missing: "zero" }, TRAIN, "missing"],
    [{ label: "y", features: [] }, TRAIN, "features"],
    [{ label: "y", features: ["a", "a"] }, TRAIN, "features"],
    [{ label: "y", maxBytes: 0 }, TRAIN, "maxBytes"],
    [{ label: "y", delimiter: ":" }, TRAIN, "delimiter"],
    [{ label: "y", requireBothClasses: false }, TRAIN, "requireBothClasses"],
    [{ label: "y" }, { ...TRAIN, seed: -1 }, "seed"],
    [{ label: "y" }, { ...TRAIN, bogus: 1 }, "bogus"],
  ])("%j %j", async (csv, train, parameter) => {
    const error = await codeOf(dp.trainCsv(untouchable, csv, train));
    expect(error.code).toBe("BAD_PARAMETER");
    expect(error.parameter).toBe(parameter);
  });

  test("positive without a label column, no label at all, and a source that is not one", async () => {
    // A local read needs no label, but positive without one is refused, naming it.
    const positiveAlone = await codeOf(dp.readCsv("a\n1\n", { positive: "1" }));
    expect(positiveAlone.code).toBe("BAD_PARAMETER");
    expect(positiveAlone.parameter).toBe("positive");
    const noLabel = await dp.readCsv("a,b\n1,2\n3,4\n");
    expect(noLabel.labels).toBeNull();
    expect(noLabel.columns).toBe(2);
    const unnamed = await codeOf(dp.trainCsv("a,b\n1,0\n2,1\n", {}, TRAIN));
    expect(unnamed.code).toBe("LABEL_NOT_FOUND");
    expect(unnamed.message).toMatch(/name the label column/);
    expect((await codeOf(dp.readCsv(42, {}))).parameter).toBe("source");
  });

  test("an explicit delimiter overrides detection", async () => {
    const t = await dp.readCsv("a;b,b,c\n1;2,3,1\n0;1,2,0\n", { delimiter: ",", ignore: ["a;b"], label: "c" });
    expect(t.featureNames).toEqual(["b"]);
  });
});
