// The project's own import graph, read from the sources by TypeScript's own pre-processor: every
// import, import type, export … from and import() of a relative path (type imports tie the files'
// meaning together as much as any).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface SourceFile {
  /** Path from the repository root, with forward slashes (mock/kernel/text.ts). */
  file: string;
  lines: number;
  /** Relative imports resolved to files of the graph (other files, generated/ or packages are left out). */
  imports: string[];
}

const SKIP = /^(node_modules|dist|site|generated|test-artifacts)$/;

export function readGraph(root: string, folders: readonly string[]): Map<string, SourceFile> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIP.test(entry.name)) walk(rel);
      } else if (/\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) files.push(rel);
    }
  };
  for (const folder of folders) if (fs.existsSync(path.join(root, folder))) walk(folder);
  const known = new Set(files);
  const graph = new Map<string, SourceFile>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    const imports = new Set<string>();
    for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!spec.startsWith(".")) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const candidates = [target.replace(/\.js$/, ".ts"), `${target}.ts`, `${target}/index.ts`];
      const found = candidates.find((c) => known.has(c));
      if (found) imports.add(found);
    }
    graph.set(file, { file, lines: text.split("\n").length, imports: [...imports] });
  }
  return graph;
}

/** Every group of files that import each other round a circle (Tarjan's strongly connected components). */
export function importCircles(graph: ReadonlyMap<string, SourceFile>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.imports ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.imports.includes(v)) circles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return circles;
}
