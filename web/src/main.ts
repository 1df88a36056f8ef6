// The app: wires the views to one engine worker. Flow: data (1) → privacy settings (2) →
// evaluation split (3) → train with progress/cancel (4) → results and downloads (5); plus the
// Predict tab, the data-free plan and the Margin profile tab.
import "./style.css";
import { WorkerClient } from "./worker-client.ts";
import type { EngineInfo, TrainRequest, WorkerError } from "./protocol.ts";
import { $ } from "./ui/dom.ts";
import { setupTabs } from "./ui/tabs.ts";
import { setupData } from "./ui/data/index.ts";
import { applyCoreDefaults, readOptions, readSplit, setupSettings } from "./ui/settings.ts";
import { setupTraining } from "./ui/training.ts";
import { setupResults } from "./ui/results.ts";
import { setupPredict } from "./ui/predict.ts";
import { setupPlan } from "./ui/plan.ts";
import { setupProfile } from "./ui/profile.ts";
import { setupLedger } from "./ui/ledger.ts";

const client = new WorkerClient();
const selectTab = setupTabs(document.querySelector<HTMLElement>('[role="tablist"]')!);

// Load the engine (worker + wasm) right away: the page then works offline, and the first
// training does not wait for it.
const engineStatus = $("engine-status");
const engine = client.request<EngineInfo>({ type: "init" });
engine.then(({ version, options }) => {
  // Every field of an option starts at the core's default (its option table).
  applyCoreDefaults(options);
  settings.refresh();
  engineStatus.textContent = `Engine ready: dpmargin ${version}, WebAssembly in a Web Worker.`;
  $("library-version").textContent = `dpmargin ${version}`;
  document.body.dataset.engine = "ready";
}).catch((error: WorkerError) => {
  engineStatus.textContent = `The engine could not start (${error.code}): ${error.message}`;
  engineStatus.classList.add("error");
  document.body.dataset.engine = "failed";
});

let needsReload = false;
let trainedOn = "data.csv";
let trainedHash = "";
let trainedSeeded = false;
let trainedCharged = false;  // the package recorded this run in the file's ledger
const fileLedger = setupLedger(client);
client.onRestart = () => {
  needsReload = true;
  engineStatus.textContent = "The engine was restarted after an internal error; your settings are kept.";
};

const predict = setupPredict(client);
const results = setupResults(() => {
  predict.useTrained();
  selectTab("tab-predict");
  $("tab-predict").focus();
});

let sync = () => {};
let profileRefresh = () => {};
let refreshPreview = () => {};
// A changed option or split asks the core for a new preview of the run (its plan).
const settings = setupSettings(client, () => { refreshPreview(); sync(); });
const data = setupData(client, {
  onChange: () => sync(),
  onPreview: (result) => settings.setPreview(result),
  previewInputs: () => ({ options: readOptions(), ...readSplit() }),
  onLoaded: () => {
    needsReload = false;
    results.hide();
    const t = data.table();
    fileLedger.setFile(t ? { hash: t.sha256, name: t.name } : null);
  },
});

const training = setupTraining(client, {
  blocker: () => data.blocker(),
  request: (): TrainRequest | WorkerError => {
    const selection = data.selection();
    if (!selection) return { code: "BAD_PARAMETER", message: data.blocker() || "load a CSV file first" };
    const { testFraction, splitSeed } = readSplit();
    if (!Number.isSafeInteger(splitSeed) || splitSeed < 0) {
      return { code: "BAD_PARAMETER", message: `split seed must be a non-negative integer, but is ${$<HTMLInputElement>("split-seed").value}`, parameter: "splitSeed" };
    }
    const ledger = fileLedger.current();
    return { schema: selection.schema, testFraction, splitSeed, options: readOptions(), ...(ledger ? { ledger } : {}) };
  },
  confirm: (request) => fileLedger.confirmRun({
    options: request.options,
    table: { rows: data.selection()?.rows ?? data.table()?.rows ?? 0, features: data.selection()?.modelColumns ?? 0 },
  }),
  onStart: (request) => {
    trainedOn = data.table()?.name ?? "data.csv";  // a new file may be loaded while it trains
    trainedHash = data.table()?.sha256 ?? "";
    trainedSeeded = request.options.seed !== undefined;
    trainedCharged = false;
    results.hide();
  },
  // The per-file ledger: the package recorded the run before its first noise (the worker sends
  // the ledger then, whatever the outcome); the app stores it and notes how the run ended.
  onLedger: (ledger) => {
    trainedCharged = true;
    if (trainedHash) fileLedger.recorded(trainedHash, trainedOn, ledger, trainedSeeded);
  },
  onEnd: (state) => {
    if (trainedHash && trainedCharged) fileLedger.ended(trainedHash, state === "done" ? "finished" : state === "cancelled" ? "cancelled" : "failed");
  },
  onDone: (outcome) => {
    results.show(outcome, trainedOn);
    predict.setTrained(outcome.model);
    $("results").scrollIntoView({ behavior: "smooth", block: "start" });
  },
  beforeTrain: async () => {
    if (needsReload) {
      await data.reload();
      needsReload = false;
    }
  },
});
sync = () => { training.sync(); profileRefresh(); };
refreshPreview = () => data.refreshPreview();
sync();

setupPlan(client, engine);
document.body.dataset.loaded = "true";

// The margin profile reads the table and label/feature choice of the Train tab (not private),
// and its ε and δ when valid, for the advice (nothing is spent).
function profileBudget(): { epsilon?: number; delta?: number } {
  const epsilon = Number($<HTMLInputElement>("train-epsilon").value.trim());
  const delta = Number($<HTMLInputElement>("train-delta").value.trim());
  return epsilon > 0 && Number.isFinite(epsilon) && delta > 0 && delta < 1 ? { epsilon, delta } : {};
}
const profile = setupProfile(client, () => {
  const selection = data.selection();
  return data.table() && selection
    ? { schema: selection.schema, intercept: $<HTMLInputElement>("intercept").checked, ...profileBudget() }
    : null;
}, () => data.blocker());
profileRefresh = () => profile.refresh();
profile.refresh();
