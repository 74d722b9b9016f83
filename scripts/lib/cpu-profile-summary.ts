// Where a V8 CPU profile's time goes, for a reader of the sources: self time by module (a package
// under node_modules by its name, a file of this repository by its path, Node's internals by their
// area), self time by function, and the time spent under each of the repository's own functions
// (inclusive: a sample counts once for every distinct function on its stack).
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  ms: number;
}

export interface ProfileSummary {
  /** Milliseconds sampled while the process did something (idle left out). */
  busyMs: number;
  idleMs: number;
  /** Self time, largest first. */
  byModule: Share[];
  byFunction: Share[];
  /** Time under each of the repository's functions, largest first. */
  underOwnFunction: Share[];
}

/** V8's own entries: they have no URL. */
const NATIVE: Record<string, string> = { "(program)": "(V8: compiling, the event loop, native code)", "(garbage collector)": "(garbage collector)", "(idle)": "(idle)", "(root)": "(root)" };

/** What `url` belongs to: a package's name, a path of the repository at `root`, an area of Node, or V8. */
export function moduleOf(url: string, root: string, functionName = ""): string {
  if (url === "") return NATIVE[functionName] ?? `(native ${functionName || "code"})`;
  if (url.startsWith("node:")) return `node:${url.slice(5).replace(/^internal\//, "").split("/")[0]}`;
  const path = url.replace(/^file:\/\//, "");
  const at = path.lastIndexOf("/node_modules/");
  if (at >= 0) {
    const parts = path.slice(at + "/node_modules/".length).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const base = root.endsWith("/") ? root : `${root}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

const PROBE = "scripts/bench/profile-probe.mjs";
const isOwn = (module: string) => /^(mock|src|generated|scripts)\//.test(module);

export function summarise(profile: CpuProfile, root: string): ProfileSummary {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node: ProfileNode) => {
    const module = moduleOf(node.callFrame.url, root, node.callFrame.functionName);
    const name = node.callFrame.functionName || "(anonymous)";
    const { url } = node.callFrame;
    // A package's function by its file in node_modules and line; the repository's by path (tsx's lines are not the source's).
    const where = isOwn(module) ? module : `${url.includes("/node_modules/") ? url.slice(url.lastIndexOf("/node_modules/") + 14) : module}:${node.callFrame.lineNumber + 1}`;
    return { module, fn: url === "" ? module : `${name} (${where})` };
  };
  const labels = new Map(profile.nodes.map((node) => [node.id, label(node)]));
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  const under = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let idleMs = 0;
  let busyMs = 0;
  profile.samples.forEach((sample, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const leaf = labels.get(sample);
    if (!leaf) return;
    if (leaf.module === "(idle)") return void (idleMs += ms);
    // The probe's own work (writing the profile) is not the mock's.
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) if (labels.get(id)!.module === PROBE) return;
    busyMs += ms;
    add(modules, leaf.module, ms);
    add(functions, leaf.fn, ms);
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const at = labels.get(id)!;
      if (isOwn(at.module) && !seen.has(at.fn)) {
        seen.add(at.fn);
        add(under, at.fn, ms);
      }
    }
  });
  const sorted = (map: Map<string, number>) => [...map].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return { busyMs, idleMs, byModule: sorted(modules), byFunction: sorted(functions), underOwnFunction: sorted(under) };
}

/**
 * The summary as lines: each share in percent of the busy samples and in µs of CPU per request
 * (the share of `cpuUsPerRequest`, the process's CPU time per request as the OS counted it: samples
 * are taken in wall time, which a loaded machine stretches).
 */
export function formatSummary(summary: ProfileSummary, cpuUsPerRequest: number, top = 15): string[] {
  const row = (share: Share) => `  ${((share.ms / summary.busyMs) * 100).toFixed(1).padStart(5)} %  ${((share.ms / summary.busyMs) * cpuUsPerRequest).toFixed(1).padStart(6)} µs  ${share.name}`;
  return [
    `${summary.busyMs.toFixed(0)} ms sampled busy (idle ${summary.idleMs.toFixed(0)} ms left out); ${cpuUsPerRequest.toFixed(0)} µs of CPU a request`,
    "",
    "self time by module (a package, a file of this repository, an area of Node):",
    ...summary.byModule.slice(0, top).map(row),
    "",
    "self time by function (repository files by path; a package's by file and line in node_modules):",
    ...summary.byFunction.slice(0, top + 5).map(row),
    "",
    "time under the repository's own functions (each sample once per function on its stack):",
    ...summary.underOwnFunction.slice(0, top + 5).map(row),
  ];
}
