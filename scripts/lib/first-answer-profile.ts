// Where a page's wait for the MSW handlers' first answer goes (npm run size -- --profile): the
// first-answer page (first-answer.ts) bundled without minifying, so functions and modules keep
// their names, opened in fresh pages with Chromium's sampling CPU profiler running from before
// navigation to the first answer (the page waits there while the profile is taken). Each sample is
// put in the first phase, from the outermost frame in, whose rule it meets; the phases' medians over
// the pages are printed. A profile of an unminified build: its parse is slower than a build's, its
// other phases the same code.
import type { CDPSession, Page } from "playwright-core";
import { measureFirstAnswer, median, OUR_HANDLERS } from "./first-answer.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A phase and how a frame is known to be in it. */
interface Phase {
  name: string;
  holds: (functionName: string) => boolean;
}

/** Modules as esbuild names their wrappers in an unminified bundle: their path. */
const MODULE = /\.(?:c?js|mjs|ts|json)$/;

/** In precedence order: a sample in the dataset's build under the handlers' set-up is the dataset's. */
export const PHASES: readonly Phase[] = [
  { name: "building the start dataset (createDataset)", holds: (name) => name === "createDataset" },
  { name: "Ajv compiling the validators Prism asks for", holds: (name) => name === "compileSchema" || name === "_compileMetaSchema" },
  { name: "answering the first request (the dispatcher and Prism, as far as their calls stay on its stack)", holds: (name) => name === "dispatch" },
  { name: "setting up the handlers' mock (the documents, the worlds)", holds: (name) => name === "assembleHandlersMock" },
  { name: "evaluating modules (msw, Prism's libraries, the mock)", holds: (name) => MODULE.test(name) },
];

/** Chromium's own entries: parsing and compiling script, the collector, waiting. */
const NATIVE = new Map<string, string>(Object.entries({ "(program)": "parsing and compiling script (V8)", "(garbage collector)": "collecting garbage", "(idle)": "idle (fetching, the worker starting)" }));
const OTHER = "other script (msw: its worker's set-up, matching and cookies; the client; the page)";

/** Milliseconds of CPU per phase, for one profile. */
export function phasesOf(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  profile.samples.forEach((sample, i) => {
    const stack: string[] = [];
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) stack.unshift(byId.get(id)!.callFrame.functionName);
    const leaf = stack[stack.length - 1] ?? "";
    const phase = NATIVE.get(leaf) ?? PHASES.find((p) => stack.some((name) => p.holds(name)))?.name ?? OTHER;
    totals.set(phase, (totals.get(phase) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return totals;
}

/** Opens the handlers in `pages` fresh pages, profiled to their first answer: the first answers and each page's phases. */
export async function profileFirstAnswer(repoRoot: string, pages: number): Promise<{ first: number[]; phases: Map<string, number>[] }> {
  const phases: Map<string, number>[] = [];
  const around = async (page: Page) => {
    const cdp: CDPSession = await page.context().newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
    return async () => {
      const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
      phases.push(phasesOf(profile));
    };
  };
  const runs = await measureFirstAnswer(repoRoot, pages, OUR_HANDLERS, { around, keepNames: true });
  if (phases.length !== runs.length) throw new Error(`profiled ${phases.length} of ${runs.length} pages: a page never reached its first answer`);
  return { first: runs.map((run) => run.first), phases };
}

/** The phases' medians over the pages, largest first. */
export function medianPhases(phases: Map<string, number>[]): Array<[string, number]> {
  const names = new Set(phases.flatMap((p) => [...p.keys()]));
  return [...names].map((name): [string, number] => [name, median(phases.map((p) => p.get(name) ?? 0))]).sort((a, b) => b[1] - a[1]);
}
