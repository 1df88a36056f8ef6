// The streaming CSV reader beyond the fixture corpus: chunk boundaries, the two passes and
// their sink, early stops, cancellation, and the wasm path against the JavaScript path.
import { load, readCsv, readCsvInto, previewCsv, csvFile, MAX_TABLE_BYTES, DpMarginError } from "dpmargin";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { separable, toCsv, mulberry32 } from "./synthetic.js";

const TRAIN = { epsilon: 1, delta: 1e-5, seed: 3, maxIterations: 20 };
const encoder = new TextEncoder();

function pieces(bytes, size, log) {
  return {
    async *open() {
      for (let i = 0; i < bytes.length; i += size) {
        log?.push(i);
        yield bytes.subarray(i, i + size);
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
  let reference;
  beforeAll(async () => {
    reference = await readCsv(text, options);
  });

  test("the text source reads every row", () => {
    expect(reference.rows).toBe(3000);
    expect(reference.featureNames).toEqual(["größe", "温度"]);
    expect(reference.newline).toBe("\r\n");
  });

  test.each([1, 2, 3, 7, 64, 4096, 1 << 20])("%i-byte pieces", async (size) => {
    const table = await readCsv(pieces(bytes, size), options);
    expect(table).toEqual(reference);
  });

  test.each([1, 5, 333])("an error's line number with %i-byte pieces", async (size) => {
    const bad = encoder.encode(awkward(3000, 2500));
    const error = await codeOf(readCsv(pieces(bad, size), options));
    const fromText = await codeOf(readCsv(awkward(3000, 2500), options));
    expect(error.code).toBe("NON_NUMERIC");
    expect(error.message).toBe(fromText.message);
    // Data row 2500 is on line 2502, plus one for each earlier note with a line break (x\r\ny, p\nq).
    const breaks = [...Array(2500).keys()].filter((i) => i % 8 === 5 || i % 8 === 6).length;
    expect(error.message).toContain(`line ${2502 + breaks},`);
  });

  test("a file on disk and a Blob give the same table", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dpmargin-csv-"));
    writeFileSync(join(dir, "a.csv"), bytes);
    expect(await readCsv(csvFile(join(dir, "a.csv")), options)).toEqual(reference);
    expect(await readCsv(new Blob([bytes]), options)).toEqual(reference);
  });
});

describe("encodings", () => {
  test.each([
    ["UTF-16 BE", [0xfe, 0xff, 0, 0x61], /UTF-16/],
    ["invalid byte in a data row", [...encoder.encode("a,label\n1,1\n"), 0xff, ...encoder.encode(",0\n")], /at byte 12\)/],
    ["ends inside a character", [...encoder.encode("a,label\n1,1\n2,"), 0xe4, 0xb8], /at byte 14\)/],
  ])("%s → CSV_PARSE", async (_, list, pattern) => {
    const bytes = Uint8Array.from(list);
    for (const size of [1, 2, 1000]) {
      const error = await codeOf(readCsv(pieces(bytes, size), { label: "label" }));
      expect(error.code).toBe("CSV_PARSE");
      expect(error.message).toMatch(pattern);
    }
  });
});

test("the sink: stride, fresh views per chunk, labels ±1", async () => {
  const text = "a,b,y\n" + Array.from({ length: 500 }, (_, i) => `${i},${-i},${i % 2 ? "yes" : "no"}`).join("\n");
  let calls = 0;
  let x;
  let y;
  const schema = await readCsvInto(pieces(encoder.encode(text), 100), { label: "y", positive: "yes" },
    (rows, columns, labelled) => {
      expect([rows, columns, labelled]).toEqual([500, 2, true]);
      x = new Float32Array(rows * 3).fill(7);
      y = new Int8Array(rows);
      // A new view object on every call, as when wasm memory grows.
      return { stride: 3, features: () => { calls++; return new Float32Array(x.buffer); }, labels: () => y };
    });
  expect(schema.rows).toBe(500);
  expect(calls).toBeGreaterThan(10);  // re-read for every chunk of pass 2
  expect(Array.from(x.subarray(3 * 499, 3 * 500))).toEqual([499, -499, 7]);  // the gap is untouched
  expect(y[0]).toBe(-1);
  expect(y[499]).toBe(1);
});

test("a source that changes between the passes is refused", async () => {
  let opened = 0;
  const source = {
    async *open() {
      opened++;
      yield encoder.encode(opened === 1 ? "a,y\n1,1\n2,0\n" : "a,y\n1,1\n2,0\n3,1\n");
    },
  };
  const error = await codeOf(readCsv(source, { label: "y" }));
  expect(error.code).toBe("CSV_PARSE");
  expect(error.message).toMatch(/changed/);
});

test("previewCsv reads only what it shows and closes the source", async () => {
  const text = "id,x,empty,label\n" + Array.from({ length: 5000 }, (_, i) => `r${i},${i / 3},,${i % 2}`).join("\n");
  const pulled = [];
  const preview = await previewCsv(pieces(encoder.encode(text), 1000, pulled), { rows: 5 });
  expect(preview.header).toEqual(["id", "x", "empty", "label"]);
  expect(preview.rows).toHaveLength(5);
  expect(preview.truncated).toBe(true);
  expect(preview.columnTypes).toEqual(["text", "numeric", "empty", "numeric"]);
  expect(pulled.length).toBeLessThan(5);
  const semi = await previewCsv("a;b\n1;x\n");
  expect(semi.delimiter).toBe(";");
  expect(semi.truncated).toBe(false);
  expect((await codeOf(previewCsv(""))).code).toBe("CSV_PARSE");
});

test("too large: OUT_OF_MEMORY while counting, without reading an endless source", async () => {
  expect(MAX_TABLE_BYTES).toBe((2 ** 29 - 1) * 4);
  let served = 0;
  const endless = {
    async *open() {
      yield encoder.encode("a,b,c,label\n");
      for (;;) {
        served++;
        yield encoder.encode("1,2,3,1\n4,5,6,0\n".repeat(4096));
      }
    },
  };
  const error = await codeOf(readCsv(endless, { label: "label", maxBytes: 1e6 }));
  expect(error.code).toBe("OUT_OF_MEMORY");
  expect(error.message).toMatch(/at least .* limit of 1\.0 MiB \(1000000 bytes\)/);
  expect(served).toBeLessThan(40);
});

test("an open quote stops at the row-length cap, in linear time", async () => {
  const chunk = encoder.encode("x".repeat(1 << 20));
  const source = {
    async *open() {
      yield encoder.encode('a,label\n1,1\n"');
      for (;;) yield chunk;
    },
  };
  const started = Date.now();
  const error = await codeOf(readCsv(source, { label: "label" }));
  expect(error.code).toBe("CSV_PARSE");
  expect(error.message).toMatch(/line 3 is longer than 33554432 characters/);
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

test("progress reports both passes", async () => {
  const text = toCsv(separable(2000, 5, 0.1, 0, 4));
  const events = [];
  await readCsv(pieces(encoder.encode(text), 8192), { label: "label", onProgress: (p) => events.push(p) });
  expect(events.some((e) => e.pass === 1) && events.some((e) => e.pass === 2)).toBe(true);
  const last = events.at(-1);
  expect(last).toMatchObject({ pass: 2, rows: 2000 });
});

describe("the wasm path equals the JavaScript path", () => {
  const table = separable(800, 12, 0.1, 8, 6);
  const text = toCsv(table);

  test("trainCsv and train(readCsv) give identical models", async () => {
    const viaCsv = await dp.trainCsv(text, { label: "label" }, TRAIN);
    const parsed = await readCsv(text, { label: "label" });
    const viaArrays = await dp.train(parsed, TRAIN);
    expect(Array.from(viaCsv.model.weights)).toEqual(Array.from(viaArrays.model.weights));
    expect(viaCsv.model.intercept).toBe(viaArrays.model.intercept);
    expect(viaCsv.report.selectedMargin).toBe(viaArrays.report.selectedMargin);
    expect(viaCsv.model.label).toEqual({ column: "label", positive: "1" });
  });

  test("predictCsv equals predict, and returns the true labels", async () => {
    const { model } = await dp.trainCsv(text, { label: "label" }, TRAIN);
    const parsed = await readCsv(text, { label: "label" });
    const direct = model.predict(parsed.features);
    const viaCsv = await model.predictCsv(text, { label: "label" });
    expect(Array.from(viaCsv.scores)).toEqual(Array.from(direct.scores));
    expect(Array.from(viaCsv.truth)).toEqual(Array.from(parsed.labels));
    // Without a label, columns other than the model's are not read at all (here, text).
    const extra = text.trim().split("\n").map((line, i) => line + (i === 0 ? ",comment" : ",hello")).join("\n");
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
    [{}, TRAIN, "label"],
    [{ label: "y", bogus: 1 }, TRAIN, "bogus"],
    [{ label: "y", missing: { impute: Number.NaN } }, TRAIN, "missing"],
    [{ label: "y", missing: "zero" }, TRAIN, "missing"],
    [{ label: "y", features: [] }, TRAIN, "features"],
    [{ label: "y", features: ["a", "a"] }, TRAIN, "features"],
    [{ label: "y", maxBytes: 0 }, TRAIN, "maxBytes"],
    [{ label: "y", delimiter: "|" }, TRAIN, "delimiter"],
    [{ label: "y", requireBothClasses: false }, TRAIN, "requireBothClasses"],
    [{ label: "y" }, { ...TRAIN, seed: -1 }, "seed"],
    [{ label: "y" }, { ...TRAIN, bogus: 1 }, "bogus"],
  ])("%j %j", async (csv, train, parameter) => {
    const error = await codeOf(dp.trainCsv(untouchable, csv, train));
    expect(error.code).toBe("BAD_PARAMETER");
    expect(error.parameter).toBe(parameter);
  });

  test("positive without label, and a source that is not one", async () => {
    expect((await codeOf(readCsv("a\n1\n", { positive: "1" }))).parameter).toBe("positive");
    expect((await codeOf(readCsv(42, {}))).parameter).toBe("source");
  });

  test("an explicit delimiter overrides detection", async () => {
    const t = await readCsv("a;b,c\n1;2,3\n", { delimiter: ",", ignore: ["a;b"] });
    expect(t.featureNames).toEqual(["c"]);
  });
});
