// Where the first answer's wait goes (npm run size -- --profile; scripts/lib/first-answer-profile.ts):
// each CPU sample counted once, in the first phase (in precedence order) any frame of its stack is
// in, Chromium's own entries by name, the rest as other script.
import { describe, expect, it } from "vitest";
import { medianPhases, phasesOf } from "../../scripts/lib/first-answer-profile.js";

/** A profile of one stack per sample (outermost first), each sample `ms` long. */
function profileOf(stacks: string[][], ms = 1) {
  const nodes = [{ id: 1, callFrame: { functionName: "(root)", url: "" }, children: [] as number[] }];
  const samples: number[] = [];
  for (const stack of stacks) {
    let parent = nodes[0]!;
    for (const name of stack) {
      let node = parent.children.map((id) => nodes[id - 1]!).find((n) => n.callFrame.functionName === name);
      if (!node) {
        node = { id: nodes.length + 1, callFrame: { functionName: name, url: "app.js" }, children: [] };
        nodes.push(node);
        parent.children.push(node.id);
      }
      parent = node;
    }
    samples.push(parent.id);
  }
  return { nodes, samples, timeDeltas: samples.map(() => ms * 1000) };
}

const phase = (text: string) => (name: string) => name.startsWith(text);

describe("phasesOf", () => {
  const cases: [string, { given: string[][]; want: Array<[(name: string) => boolean, number]> }][] = [
    ["the dataset's build under the handlers' set-up is the dataset's", { given: [["ready", "assembleHandlersMock", "createDataset", "buildOrganization"], ["ready", "assembleHandlersMock", "loadReadSpec"]], want: [[phase("building the start dataset"), 1], [phase("setting up the handlers' mock"), 1]] }],
    ["Ajv's compile inside the first request is Ajv's", { given: [["dispatch", "validateInput", "compileSchema", "code"], ["dispatch", "admit"]], want: [[phase("Ajv compiling"), 1], [phase("answering the first request"), 1]] }],
    ["a module's evaluation, named by its path, nested or not, once", { given: [["node_modules/a/index.js", "node_modules/b/index.js", "f"], ["mock/data/dataset.ts"]], want: [[phase("evaluating modules"), 2]] }],
    ["Chromium's own entries by name; the rest is other script", { given: [["(idle)"], ["(program)"], ["(garbage collector)"], ["toString"], ["setupWorker", "start"]], want: [[phase("idle"), 1], [phase("parsing and compiling"), 1], [phase("collecting garbage"), 1], [phase("other script"), 2]] }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const totals = phasesOf(profileOf(given));
    for (const [is, ms] of want) {
      const found = [...totals].filter(([name]) => is(name));
      expect(found.length, `one phase of ${JSON.stringify([...totals.keys()])} should match`).toBe(1);
      expect(found[0]![1], `${found[0]![0]}: milliseconds`).toBe(ms);
    }
    expect([...totals.values()].reduce((a, b) => a + b, 0), "every sample counted once").toBe(given.length);
  });
});

describe("medianPhases", () => {
  it("the median of each phase over the pages, a phase a page lacked as 0, largest first", () => {
    const pages = [new Map([["a", 10], ["b", 1]]), new Map([["a", 30]]), new Map([["a", 20], ["b", 5]])];
    expect(medianPhases(pages)).toEqual([["a", 20], ["b", 1]]);
  });
});
