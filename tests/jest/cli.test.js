// The package's bin: `dpmargin account`.
import { vectors, expectRelative, cli } from "./helpers.js";

test("account --json (tight) reports μ = 0.268051…", () => {
  const r = cli("account", "--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "50", "--json");
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const plan = JSON.parse(r.stdout);
  expect(plan.calibration).toBe("tight");
  expect(plan.mu.toString()).toMatch(/^0\.268051/);
  expectRelative(plan.mu, "0.26805112321129421922", 1e-10, "mu");
});

test("account --calibration paper --jl-failure 1e-3 equals the mstar_plan record", () => {
  const rec = vectors.mstar_plan.find((r) => !r.exact_gdp && r.n === 1000 && r.d === 50);
  const r = cli("account", "--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "50",
    "--calibration", "paper", "--jl-failure", "1e-3", "--range-share", "0", "--max-iterations", "1000000000", "--json");
  expect(r.code).toBe(0);
  const plan = JSON.parse(r.stdout);
  expect(plan.mu.toString()).toMatch(/^0\.104198/);
  expectRelative(plan.mu, rec.mu_total, 1e-10, "mu_total");
  expect(plan.candidates).toHaveLength(rec.rows.length);
  rec.rows.forEach((row, j) => {
    const c = plan.candidates[j];
    expectRelative(c.gamma, row.gamma, 1e-12, "gamma");
    expectRelative(c.c, row.c, 1e-12, "c");
    expectRelative(c.sensitivity, row.Delta, 1e-12, "Delta");
    expect(c.kJl).toBe(row.k_jl);
    expect(c.projected).toBe(!row.skip_projection);
    expect(c.k).toBe(row.dim);
    expect(c.T).toBe(row.T);
    // The record's σ is for exact sums; ours also covers the float sums: × (1 + κ).
    expectRelative(c.sigma / (1 + plan.floatSlack), row.sigma, 1e-10, "sigma");
  });
});

test("human-readable output names the parts", () => {
  const r = cli("account", "--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "50",
    "--selector", "privtune", "--expected-runs", "10");
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/μ total = 0\.\d+/);
  expect(r.stdout).toMatch(/E\[K\] = 10/);
  expect(r.stdout).toMatch(/gamma/);
});

describe("bad parameters exit 2, name the parameter on stderr, print nothing on stdout", () => {
  const base = ["--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "50"];
  const set = (flag, value) => {
    const args = [...base];
    const i = args.indexOf(flag);
    if (i >= 0) args[i + 1] = value; else args.push(flag, value);
    return args;
  };
  test.each([
    ["--epsilon", "0"], ["--epsilon", "-1"], ["--epsilon", "nan"], ["--epsilon", "abc"],
    ["--delta", "0"], ["--delta", "1"], ["--n", "1"], ["--n", "10.5"], ["--d", "0"],
    ["--expected-runs", "0.5"], ["--calibration", "loose"], ["--selector", "x"],
    ["--max-iterations", "0"],
  ])("%s %s", (flag, value) => {
    const args = set(flag, value);
    if (flag === "--expected-runs") args.push("--selector", "privtune");
    const r = cli("account", ...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(flag);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("missing required flag and unknown flag", () => {
    let r = cli("account", "--epsilon", "1", "--delta", "1e-5", "--n", "1000");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--d");
    r = cli("account", ...base, "--bogus", "1");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("--bogus");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    r = cli("frobnicate");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });
});
