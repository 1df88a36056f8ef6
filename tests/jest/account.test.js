// The wasm package in Node: golden accounting vectors through the public JS API, typed errors
// for every rejected parameter, and the module still working afterwards.
import { load, DpMarginError } from "dpmargin";
import { vectors, expectRelative } from "./helpers.js";

let dp;
beforeAll(async () => {
  dp = await load();
});

describe("golden vectors through the JS API (1e-10 relative)", () => {
  test("gdp_mu: largest μ for (ε, δ), every record", () => {
    for (const [i, r] of vectors.gdp_mu.entries()) {
      expectRelative(dp.accounting.gdpMu(Number(r.eps), Number(r.delta)), r.mu, 1e-10, `gdp_mu[${i}]`);
    }
  });

  test("gdp_delta: δ(ε; μ), ln δ where δ underflows", () => {
    for (const [i, r] of vectors.gdp_delta.entries()) {
      if (r.underflows_double) {
        expectRelative(dp.accounting.gdpLogDelta(Number(r.eps), Number(r.mu)), r.ln_delta, 1e-10, `gdp_delta[${i}]`);
      } else {
        expectRelative(dp.accounting.gdpDelta(Number(r.eps), Number(r.mu)), r.delta, 1e-10, `gdp_delta[${i}]`);
      }
    }
  });

  test("gdp_eps and the paper's conversions (sample)", () => {
    for (const [i, r] of vectors.gdp_eps.entries()) {
      expectRelative(dp.accounting.gdpEpsilon(Number(r.mu), Number(r.delta)), r.eps, 1e-10, `gdp_eps[${i}]`);
    }
    for (const [i, r] of vectors.paper_conversions.entries()) {
      expectRelative(dp.accounting.paperMuMstar(Number(r.eps), Number(r.delta)), r.mu_paper_mstar, 1e-10, `paper_conversions[${i}]`);
    }
    for (const [i, r] of vectors.paper_eps_lemma.entries()) {
      expectRelative(dp.accounting.paperEpsilonLemma(Number(r.mu), Number(r.delta)), r.eps, 1e-10, `paper_eps_lemma[${i}]`);
    }
  });

  test("grid_gamma", () => {
    for (const r of vectors.grid_gamma) {
      const grid = dp.accounting.marginGrid(r.n, Number(r.b));
      expect(grid).toHaveLength(r.size);
      grid.forEach((g, j) => expectRelative(g, r.values[j], 1e-12, `grid n=${r.n}`));
    }
  });

  test("PrivTune: Papernot–Steinke optimum and the paper's Lemma", () => {
    for (const [i, r] of vectors.ps22_eps_opt.entries()) {
      expectRelative(dp.accounting.ps22Epsilon(Number(r.mu), Number(r.eta), Number(r.gamma), Number(r.delta)),
        r.eps_opt_over_lambda, 1e-10, `ps22_eps_opt[${i}]`);
    }
    for (const [i, r] of vectors.privtune_paper.entries()) {
      expectRelative(dp.accounting.privtunePaperEpsilon(Number(r.mu), Number(r.r), Number(r.delta)),
        r.eps_lemma, 1e-10, `privtune_paper[${i}]`);
    }
  });

  test("TNB PGF (p_miss) sample", () => {
    for (const r of vectors.tnb) {
      for (const [m, p] of Object.entries(r.p_miss)) {
        expectRelative(dp.accounting.tnbPgf(Number(r.eta), Number(r.r), 1 - 1 / Number(m)), p, 1e-10,
          `tnb η=${r.eta} r=${r.r} m=${m}`);
      }
    }
  });

  test("mstar_plan with the paper's constants: μ and every candidate row", () => {
    for (const rec of vectors.mstar_plan) {
      const plan = dp.account({
        epsilon: Number(rec.eps), delta: Number(rec.delta), n: rec.n, d: rec.d,
        normBound: Number(rec.b), jlFailure: Number(rec.beta_jl_total),
        calibration: rec.exact_gdp ? "tight" : "paper", maxIterations: 1e9, pruning: "none", rangeShare: 0,
        selector: "iter",  // the records are M*'s
      });
      expectRelative(plan.mu, rec.mu_total, 1e-10, "mu_total");
      expectRelative(plan.muRun, rec.mu_run, 1e-10, "mu_run");
      // The reference scores are fractions (Δ_U = 1/n); ours are counts (Δ_U = 1).
      expectRelative(plan.scoreSd / rec.n, rec.score_sd, 1e-10, "score_sd");
      expect(plan.candidates).toHaveLength(rec.n_grid);
      rec.rows.forEach((row, j) => {
        const c = plan.candidates[j];
        expectRelative(c.gamma, row.gamma, 1e-12, `gamma[${j}]`);
        expect(c.kJl).toBe(row.k_jl);
        expect(c.projected).toBe(!row.skip_projection);
        expect(c.k).toBe(row.dim);
        if (!rec.exact_gdp) {
          // Paper calibration reproduces the record exactly (c, Δ, T, σ).
          expectRelative(c.c, row.c, 1e-12, `c[${j}]`);
          expectRelative(c.sensitivity, row.Delta, 1e-12, `Delta[${j}]`);
          expect(c.T).toBe(row.T);
          // The record's σ is for exact sums; ours also covers the float sums: × (1 + κ).
          expectRelative(c.sigma / (1 + plan.floatSlack), row.sigma, 1e-10, `sigma[${j}]`);
        }
      });
    }
  });
});

describe("plan semantics", () => {
  test("the default is auto: one unprojected run at the public γ₀ = b·max(1, √(0.25/μ_train))/√n, the whole budget", () => {
    const plan = dp.account({ epsilon: 0.5, delta: 1e-5, n: 456, d: 31 });
    expect(plan.selector).toBe("auto");
    expect(plan.candidates).toHaveLength(1);
    const [c] = plan.candidates;
    const gamma = Math.max(1, Math.sqrt(0.25 / plan.muTrain)) / Math.sqrt(456);
    expectRelative(c.gamma, gamma, 1e-12, "gamma");
    expect(plan.margin).toBe(c.gamma);
    expect(c.projected).toBe(false);
    expect(c.k).toBe(31);
    expect(c.T).toBe(Math.max(200, Math.ceil(800 * plan.muTrain)));
    expect(plan.muRun).toBe(plan.muTrain);
    expect(plan.scoreSd).toBe(0);
    expect(plan.maxIterations).toBe(600);
    expect(plan.pruning).toBe("none");
    expect(plan.rangeShare).toBe(0.1);
    // Paper calibration: the paper's M* (Iter), unchanged.
    const paper = dp.account({ epsilon: 0.5, delta: 1e-5, n: 456, d: 31, calibration: "paper" });
    expect(paper.selector).toBe("iter");
    expect(paper.candidates.length).toBe(paper.gridSize);
    expect(paper.margin).toBeUndefined();
    expect(plan.selects).toBe(false);
    expect(paper.selects).toBe(true);
  });

  test("auto on a large table: a private choice among γ₀/3, γ₀, 3γ₀ with a 97/3 run/score split", () => {
    // ε = 1, n = 40,000: μ_class ≈ 0.254, score sd 10/μ_class ≈ 39 ≤ 0.125% of n = 50.
    const plan = dp.account({ epsilon: 1, delta: 1e-5, n: 40000, d: 50 });
    expect(plan.selector).toBe("auto");
    expect(plan.selects).toBe(true);
    expectRelative(plan.muRun, plan.muTrain * Math.sqrt(0.97 / 3), 1e-14, "muRun");
    expectRelative(plan.scoreSd, 10 / plan.muTrain, 1e-12, "scoreSd");
    const gamma0 = Math.max(1, Math.sqrt(0.25 / plan.muRun)) / Math.sqrt(40000);
    expectRelative(plan.margin, gamma0, 1e-12, "margin");
    expect(plan.candidates.map((c) => c.gamma)).toHaveLength(3);
    plan.candidates.forEach((c, i) => {
      expectRelative(c.gamma, gamma0 * [1 / 3, 1, 3][i], 1e-12, `gamma ${i}`);
      expect(c.projected).toBe(false);
      expect(c.T).toBe(plan.candidates[0].T);
    });
    // One row below the switch: the single run.
    const n = Math.ceil(plan.scoreSd / 0.00125);
    expect(dp.account({ epsilon: 1, delta: 1e-5, n, d: 50 }).selects).toBe(true);
    const below = dp.account({ epsilon: 1, delta: 1e-5, n: n - 1, d: 50 });
    expect(below.selects).toBe(false);
    expect(below.candidates).toHaveLength(1);
  });

  test("tight: c = γ, R = b when not projected; T from the 5% bound; σ from the integer T", () => {
    const plan = dp.account({ epsilon: 1, delta: 1e-5, n: 1000, d: 50, selector: "iter" });
    expect(plan.calibration).toBe("tight");
    expect(plan.selector).toBe("iter");
    expect(plan.neighbouring).toBe("replace-one");
    expectRelative(plan.mu, "0.26805112321129421922", 1e-10, "mu");
    expect(plan.epsilonSpent).toBeLessThanOrEqual(1);
    for (const c of plan.candidates) {
      expect(c.projected).toBe(false);
      expect(c.c).toBe(c.gamma);
      expect(c.sensitivity).toBeCloseTo(2 / c.gamma, 9);
      expect(Number.isInteger(c.T)).toBe(true);
      expectRelative(c.sigma, (c.sensitivity * (1 + plan.floatSlack) * Math.sqrt(c.T)) / plan.muRun, 1e-12, "sigma");
    }
    const paper = dp.account({ epsilon: 1, delta: 1e-5, n: 1000, d: 50, calibration: "paper" });
    expect(paper.mu).toBeLessThan(plan.mu / 2.5);
  });

  test("privtune: tight (Papernot–Steinke) gives a larger μ than the paper's theorem", () => {
    const tight = dp.account({ epsilon: 1, delta: 1e-5, n: 1000, d: 50, selector: "privtune", expectedRuns: 10 });
    const paper = dp.account({ epsilon: 1, delta: 1e-5, n: 1000, d: 50, selector: "privtune", expectedRuns: 10, calibration: "paper" });
    expect(tight.tnbR).toBeCloseTo(0.1, 12);
    expect(tight.mu).toBeGreaterThan(paper.mu);
    expect(tight.epsilonSpent).toBeLessThanOrEqual(1);
    expect(paper.epsilonSpent).toBeLessThanOrEqual(1 + 1e-12);
    expectRelative(tight.muRun, tight.mu / Math.SQRT2, 1e-12, "muRun");
    expect(tight.probabilityMiss).toBeGreaterThan(0);
  });
});

describe("utility-only options: step scale, hinge scale, pruning", () => {
  test("the core's option table says what an unset option becomes, and the plan applies it", () => {
    const byName = Object.fromEntries(dp.options.map((o) => [o.name, o]));
    for (const name of ["epsilon", "delta", "selector", "maxIterations", "pruneRatio", "rangeShare", "intercept", "seed"]) {
      expect(byName[name]).toBeDefined();
      expect(typeof byName[name].help).toBe("string");
    }
    expect(byName.selector.choices).toEqual(["iter", "privtune", "fixed", "auto"]);
    expect(byName.selector.default).toBeNull();  // a rule: auto with tight, iter with paper
    expect(byName.selector.defaultText).toBe("auto with calibration tight, iter with paper");
    expect(byName.epsilon.defaultText).toBe("required");
    const plan = dp.account({ epsilon: 1, delta: 1e-5, n: 30000, d: 122, selector: "iter" });
    // Every constant default of a plan option is what the plan resolved it to (Iter: the
    // selector's default is a rule, auto with tight, and auto plans no pruning).
    for (const o of dp.options) {
      if (o.default === null || o.scope === "train" || !(o.name in plan)) continue;
      if (o.name === "pruning") continue;  // "auto" is a rule: noise-floor with tight
      // A rule too: the share applies only when some categories or classes are discovered.
      if (o.name === "discoveryShare") continue;
      expect([o.name, plan[o.name]]).toEqual([o.name, o.default]);
    }
    expect(plan.pruning).toBe("noise-floor");
    expect([plan.discoveryColumns, plan.discoveryShare, plan.muDiscovery]).toEqual([0, 0, 0]);
    expect(byName.discoveryShare.defaultText).toMatch(/0\.1 when some categories are discovered, 0\.1 when the label's classes are .*, else 0/);
    // The iteration cap is a rule too (600 with auto, else 200): no constant default.
    expect(byName.maxIterations.default).toBeNull();
    expect(dp.defaults.maxIterations).toBeUndefined();
    expect(byName.maxIterations.defaultText).toMatch(/^600 with selector auto .* else 200$/);
    expect(dp.defaults.pruneRatio).toBe(byName.pruneRatio.default);
  });

  test("pruning is public and reported: kept ∪ pruned = the grid, privacy unchanged per kept run", () => {
    const base = { epsilon: 1, delta: 1e-5, n: 30000, d: 122, selector: "iter" };
    const whole = dp.account({ ...base, pruning: "none" });
    const pruned = dp.account({ ...base, pruning: "noise-floor", pruneRatio: 10 });
    expect(whole.pruned).toEqual([]);
    expect(whole.gridSize).toBe(whole.candidates.length);
    expect(pruned.pruning).toBe("noise-floor");
    expect(pruned.pruned.length).toBeGreaterThan(0);
    expect([...pruned.pruned, ...pruned.candidates.map((c) => c.gamma)]).toEqual(whole.candidates.map((c) => c.gamma));
    expect(pruned.mu).toBe(whole.mu);
    const m = pruned.candidates.length;
    expectRelative(pruned.muRun, pruned.muTrain / Math.sqrt(2 * m), 1e-12, "muRun");
    for (const c of pruned.candidates) expect(c.noiseFloorRatio).toBeLessThanOrEqual(10);
    // The paper's calibration never prunes unless asked.
    const paper = dp.account({ ...base, calibration: "paper" });
    expect(paper.pruning).toBe("none");
    expect(paper.candidates.length).toBe(paper.gridSize);
  });

  test("step and hinge scales change η and c (and Δ, σ), never μ", () => {
    const base = { epsilon: 1, delta: 1e-5, n: 1000, d: 50, pruning: "none" };
    const a = dp.account(base);
    const b = dp.account({ ...base, stepScale: 3, hingeScale: 2 });
    expect(b.mu).toBe(a.mu);
    expect(b.stepScale).toBe(3);
    expect(b.hingeScale).toBe(2);
    b.candidates.forEach((c, j) => {
      expectRelative(c.c, 2 * a.candidates[j].c, 1e-15, "c");
      expectRelative(c.sensitivity, a.candidates[j].sensitivity / 2, 1e-15, "sensitivity");
    });
  });
});

describe("bad parameters → DpMarginError BAD_PARAMETER naming the parameter", () => {
  const base = { epsilon: 1, delta: 1e-5, n: 1000, d: 50 };
  const cases = [
    ["epsilon", 0], ["epsilon", -1], ["epsilon", Number.NaN], ["epsilon", Number.POSITIVE_INFINITY],
    ["delta", 0], ["delta", 1], ["delta", 1.5], ["delta", -1e-5], ["delta", Number.NaN],
    ["n", 1], ["n", 0], ["n", 2.5], ["n", Number.NaN],
    ["d", 0], ["d", 1.5], ["d", -3],
    ["expectedRuns", 0.5], ["expectedRuns", Number.NaN],
    ["maxIterations", 0], ["maxIterations", 10.5],
    ["normBound", 0], ["jlFailure", 2],
    ["selector", "grid"], ["calibration", "loose"], ["score", 3],
    ["epsilon", "1"],
    ["stepScale", 0], ["stepScale", -1], ["stepScale", Number.NaN], ["stepScale", Number.POSITIVE_INFINITY],
    ["hingeScale", 0], ["hingeScale", -2], ["hingeScale", "2"],
    ["pruning", "some"], ["pruneRatio", 0], ["pruneRatio", -1], ["pruneRatio", Number.NaN],
  ];
  test.each(cases)("%s = %p", (parameter, value) => {
    const options = { ...base, selector: parameter === "expectedRuns" ? "privtune" : undefined, [parameter]: value };
    if (options.selector === undefined) delete options.selector;
    let caught;
    try {
      dp.account(options);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DpMarginError);
    expect(caught).toBeInstanceOf(Error);
    expect(caught.code).toBe("BAD_PARAMETER");
    expect(caught.parameter).toBe(parameter);
    expect(caught.message).toContain(parameter);
    // …and the module keeps working.
    expect(dp.account(base).mu).toBeGreaterThan(0.26);
  });

  test("missing required option and unknown option", () => {
    expect(() => dp.account({ epsilon: 1, delta: 1e-5, n: 10 })).toThrow(/d must be a number/);
    expect(() => dp.account({ ...base, epsilom: 2 })).toThrow(DpMarginError);
    expect(() => dp.account(null)).toThrow(DpMarginError);
  });

  test("paper calibration refuses ε ≥ 8 ln(1/δ) (outside the paper's derivation)", () => {
    expect(() => dp.account({ ...base, delta: 0.1, epsilon: 20, calibration: "paper" }))
      .toThrow(expect.objectContaining({ code: "BAD_PARAMETER", parameter: "epsilon" }));
  });

  test("accounting functions validate too", () => {
    expect(() => dp.accounting.gdpMu(1, 0)).toThrow(expect.objectContaining({ parameter: "delta" }));
    expect(() => dp.accounting.gdpDelta(1, -1)).toThrow(expect.objectContaining({ parameter: "mu" }));
    expect(() => dp.accounting.marginGrid(1)).toThrow(expect.objectContaining({ parameter: "n" }));
    expect(dp.accounting.gdpMu(1, 1e-5)).toBeGreaterThan(0.268);
  });
});

test("independent instances", async () => {
  const other = await load();
  expect(other).not.toBe(dp);
  expect(other.account({ epsilon: 2, delta: 1e-6, n: 500, d: 10 }).mu)
    .toBe(dp.account({ epsilon: 2, delta: 1e-6, n: 500, d: 10 }).mu);
  expect(typeof other.version).toBe("string");
});
