// Types of the Emscripten glue (dist/wasm/dpmargin_core.mjs). Internal: the public API never
// hands these objects to users.
export type Status<T> =
  | { ok: true; value: T }
  | { ok: false; code: string; parameter: string; message: string };

export interface PlanInputRaw {
  epsilon: number;
  delta: number;
  n: number;
  d: number;
  normBound: number;
  selector: string;
  calibration: string;
  score: string;
  expectedRuns: number;
  jlFailure: number;
  maxIterations: number;
}

export interface CoreModule {
  plan(input: PlanInputRaw): Status<unknown>;
  gdpDelta(epsilon: number, mu: number): Status<number>;
  gdpLogDelta(epsilon: number, mu: number): Status<number>;
  gdpEpsilon(mu: number, delta: number): Status<number>;
  gdpMu(epsilon: number, delta: number): Status<number>;
  composeGdp(mus: number[]): Status<number>;
  paperMuMstar(epsilon: number, delta: number): Status<number>;
  paperEpsilonLemma(mu: number, delta: number): Status<number>;
  marginGrid(n: number, b: number): Status<number[]>;
  tnbSummary(eta: number, r: number, candidates: number): Status<unknown>;
  tnbPgf(eta: number, r: number, s: number): Status<number>;
  ps22Epsilon(mu: number, eta: number, gamma: number, delta: number): Status<number>;
  ps22Mu(epsilon: number, eta: number, gamma: number, delta: number): Status<number>;
  privtunePaperEpsilon(mu: number, r: number, delta: number): Status<number>;
  version(): string;
}

export interface FactoryOptions {
  locateFile?: (path: string, prefix: string) => string;
  wasmBinary?: ArrayBuffer | Uint8Array;
}

declare const createDpMarginCore: (options?: FactoryOptions) => Promise<CoreModule>;
export default createDpMarginCore;
