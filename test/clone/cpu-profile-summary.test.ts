// Where a CPU profile's time goes (npm run bench -- --profile; scripts/lib/cpu-profile-summary.ts):
// a frame's module is its package, its path in the repository, Node's area or V8's entry; self time
// goes to the sample's leaf, time under a repository function once per sample however deep it recurs;
// idle and the profiler's own probe are left out.
import { describe, expect, it } from "vitest";
import { moduleOf, summarise } from "../../scripts/lib/cpu-profile-summary.js";

const ROOT = "/work/repo";

describe("moduleOf", () => {
  const cases: [string, { given: [string, string?]; want: string }][] = [
    ["a package by its name", { given: ["file:///work/repo/node_modules/fp-ts/lib/function.js"], want: "fp-ts" }],
    ["a scoped package by scope and name", { given: ["file:///work/repo/node_modules/@stoplight/prism-http/dist/router/index.js"], want: "@stoplight/prism-http" }],
    ["a nested package by the innermost node_modules", { given: ["/work/repo/node_modules/a/node_modules/b/index.js"], want: "b" }],
    ["a repository file by its path", { given: ["file:///work/repo/mock/pipeline/route.ts"], want: "mock/pipeline/route.ts" }],
    ["Node's internals by area", { given: ["node:internal/streams/writable"], want: "node:streams" }],
    ["a Node module by name", { given: ["node:_http_outgoing"], want: "node:_http_outgoing" }],
    ["V8's collector by its entry", { given: ["", "(garbage collector)"], want: "(garbage collector)" }],
    ["a native function by name", { given: ["", "writev"], want: "(native writev)" }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(moduleOf(given[0], ROOT, given[1])).toBe(want);
  });
});

/** A profile of one stack per sample, outermost first, each frame [functionName, url]; every sample 1 ms. */
function profileOf(stacks: [string, string][][]) {
  const nodes = [{ id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 }, children: [] as number[] }];
  const samples: number[] = [];
  for (const stack of stacks) {
    let parent = nodes[0]!;
    for (const [functionName, url] of stack) {
      let node = parent.children.map((id) => nodes[id - 1]!).find((n) => n.callFrame.functionName === functionName && n.callFrame.url === url);
      if (!node) {
        node = { id: nodes.length + 1, callFrame: { functionName, url, lineNumber: 0 }, children: [] };
        nodes.push(node);
        parent.children.push(node.id);
      }
      parent = node;
    }
    samples.push(parent.id);
  }
  return { nodes, samples, timeDeltas: samples.map(() => 1000) };
}

const ROUTE = "file:///work/repo/mock/pipeline/route.ts";
const FP = "file:///work/repo/node_modules/fp-ts/lib/function.js";

describe("summarise", () => {
  const cases: [string, { given: [string, string][][]; want: { busyMs: number; idleMs: number; byModule: [string, number][]; under: [string, number][] } }][] = [
    [
      "self time to the leaf's module; time under the repository's functions",
      { given: [[["route", ROUTE], ["pipe", FP]], [["route", ROUTE]], [["(idle)", ""]]], want: { busyMs: 2, idleMs: 1, byModule: [["fp-ts", 1], ["mock/pipeline/route.ts", 1]], under: [["route (mock/pipeline/route.ts)", 2]] } },
    ],
    [
      "a recursive function counts once a sample",
      { given: [[["walk", ROUTE], ["walk", ROUTE], ["walk", ROUTE]]], want: { busyMs: 1, idleMs: 0, byModule: [["mock/pipeline/route.ts", 1]], under: [["walk (mock/pipeline/route.ts)", 1]] } },
    ],
    [
      "the profiler's probe is not the mock's",
      { given: [[["post", "file:///work/repo/scripts/bench/profile-probe.mjs"], ["stop", "node:inspector"]], [["route", ROUTE]]], want: { busyMs: 1, idleMs: 0, byModule: [["mock/pipeline/route.ts", 1]], under: [["route (mock/pipeline/route.ts)", 1]] } },
    ],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const summary = summarise(profileOf(given), ROOT);
    expect({ busyMs: summary.busyMs, idleMs: summary.idleMs }, "busy and idle milliseconds").toEqual({ busyMs: want.busyMs, idleMs: want.idleMs });
    expect(summary.byModule.map((s) => [s.name, s.ms]).sort(), "self time by module").toEqual([...want.byModule].sort());
    expect(summary.underOwnFunction.map((s) => [s.name, s.ms]), "time under the repository's functions").toEqual(want.under);
  });
});
