// The client entry runs in browsers: nothing it loads at run time may be a Node built-in (a bundler
// for the browser fails on `node:http`, `node:crypto`), and its only package is openapi-fetch.
// Read from the sources by following their run-time imports (type-only imports are erased).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const repo = fileURLToPath(new URL("../../", import.meta.url));

/** Run-time import specifiers of a TypeScript module: `import type` and `export type` are left out. */
function runtimeImports(source: string): string[] {
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
  for (const m of source.matchAll(statement)) {
    if (m[2]) continue;
    specifiers.push(m[4] ?? m[5] ?? m[6]);
  }
  return specifiers;
}

/** Every module reached from `entry` through relative run-time imports, and the bare specifiers they use. */
function importGraph(entry: string): { modules: string[]; bare: Map<string, string[]> } {
  const seen = new Set<string>();
  const bare = new Map<string, string[]>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of runtimeImports(readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
      else bare.set(specifier, [...(bare.get(specifier) ?? []), path.relative(repo, file)]);
    }
  };
  visit(path.join(repo, entry));
  return { modules: [...seen].map((f) => path.relative(repo, f)), bare };
}

describe("the client in a browser", () => {
  test("runtimeImports skips type-only imports and finds the rest", () => {
    const source = [
      'import type { A } from "./a.js";',
      'import { b, type B } from "./b.js";',
      'export { c } from "./c.js";',
      'export type { D } from "./d.js";',
      'import e from "node:e";',
      'import "./side-effect.js";',
      'const f = await import("./f.js");',
    ].join("\n");
    expect(runtimeImports(source), "run-time specifiers").toEqual(["./b.js", "./c.js", "node:e", "./side-effect.js", "./f.js"]);
  });

  test("src/client/index.ts loads no Node built-in, and no package but openapi-fetch", () => {
    const { modules, bare } = importGraph("src/client/index.ts");
    expect(modules, "the graph reaches the generated client").toContain("generated/client.ts");
    expect(Object.fromEntries(bare), "bare imports of the client's modules (and who imports them)").toEqual({
      "openapi-fetch": ["generated/client.ts"],
    });
  });

  test("the client's modules use no Node globals", () => {
    const { modules } = importGraph("src/client/index.ts");
    for (const module of modules) {
      const code = readFileSync(path.join(repo, module), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
      expect(code, `${module} uses a Node global`).not.toMatch(/\b(process|Buffer|require|__dirname|__filename)\b[.(]/);
    }
  });
});
