// Layers import downward only: no module of src/ reaches itself again through its imports, type
// imports and re-exports included (a type-only circle still ties two modules' designs together).
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const root = join(import.meta.dirname, "../..");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The relative modules a file names, in every form TypeScript sees: import, import type, export from, import(). */
function localImports(file: string, source: string): string[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, ".ts")));
}

/** Every circle of a graph, each once, as the path that closes it (Tarjan's strongly connected components). */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.reverse());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components.map((members) => [...members, members[0]]);
}

describe("the circle finder itself", () => {
  const cases: [string, { given: Record<string, string[]>; want: string[][] }][] = [
    ["a chain", { given: { a: ["b"], b: ["c"], c: [] }, want: [] }],
    ["two modules importing each other", { given: { a: ["b"], b: ["a"] }, want: [["a", "b", "a"]] }],
    ["a circle of three beside a clean module", { given: { a: ["b"], b: ["c"], c: ["a"], d: ["a"] }, want: [["a", "b", "c", "a"]] }],
    ["a module importing itself", { given: { a: ["a"] }, want: [["a", "a"]] }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    expect(circlesOf(new Map(Object.entries(given)))).toEqual(want);
  });

  test("sees type imports and re-exports", () => {
    const file = join(root, "src/x/a.ts");
    const source = `import type { T } from "./b.js";\nexport { u } from "../c.js";\nimport { v } from "pkg";`;
    expect(localImports(file, source).map((p) => relative(root, p))).toEqual(["src/x/b.ts", "src/c.ts"]);
  });
});

test("no import circle in src/", () => {
  const files = sourceFiles(join(root, "src"));
  const graph = new Map(files.map((file) => [file, localImports(file, readFileSync(file, "utf8"))]));
  const circles = circlesOf(graph).map((circle) => circle.map((file) => relative(root, file)).join(" -> "));
  expect(circles, "import circles (move what both sides need into a module below them)").toEqual([]);
});
