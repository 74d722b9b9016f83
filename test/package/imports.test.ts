// Every import in mock/, src/ and scripts/ names a declared dependency, through the entry points
// the package itself publishes: no reaching into another package's dist/ (or lib/, src/) files, no
// package that only happens to be installed because something else brought it.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { BROWSER_ALIASES } from "../../scripts/lib/msw-bundle.js";

const root = join(import.meta.dirname, "../..");
const FOLDERS = ["mock", "src", "scripts"];

/**
 * Subpaths a package documents as its own entry although it publishes no `exports` map, each with
 * where it says so.
 */
const DOCUMENTED_ENTRIES: Record<string, string> = {
  "ajv/dist/2020": "https://ajv.js.org/json-schema.html#draft-2020-12 (import Ajv2020 from \"ajv/dist/2020\")",
};

/** Where each specifier is written: `from "x"`, `import "x"`, `import("x")`, `require("x")`, `require.resolve("x")`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire(?:\.resolve)?\s*\(\s*|\)\s*\(\s*)["']([^"'\s]+)["']/g;

export function specifiersOf(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((m) => m[1]);
}

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    // Built output (dist/ of either package) is what the sources compile to, not source.
    if (entry.isDirectory()) {
      if (entry.name !== "dist" && entry.name !== "node_modules") out.push(...sourceFiles(path));
    }
    else if (/\.(?:ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The dependencies a file may import: its own package's (mock/package.json once the mock is a package of its own) and the root's. */
function declaredFor(file: string): Set<string> {
  const manifests = [join(root, "package.json")];
  const mockManifest = join(root, "mock/package.json");
  if (file.startsWith(join(root, "mock/")) && existsSync(mockManifest)) manifests.unshift(mockManifest);
  const names = new Set<string>();
  for (const manifest of manifests) {
    const pkg = JSON.parse(readFileSync(manifest, "utf8"));
    for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) for (const name of Object.keys(pkg[field] ?? {})) names.add(name);
    names.add(pkg.name);
  }
  return names;
}

export type ImportProblem = { kind: "undeclared" | "deep"; specifier: string };

/** What is wrong with one specifier of a file, if anything. */
export function problemOf(specifier: string, declared: Set<string>, exportsOf: (name: string) => unknown): ImportProblem | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:") || builtinModules.includes(specifier)) return undefined;
  const name = packageNameOf(specifier);
  if (!declared.has(name)) return { kind: "undeclared", specifier };
  const subpath = specifier.slice(name.length);
  if (subpath === "" || subpath === "/package.json") return undefined;
  if (DOCUMENTED_ENTRIES[specifier.replace(/\.js$/, "")]) return undefined;
  const exportsMap = exportsOf(name);
  // A package with an exports map says which subpaths are public: Node refuses the rest anyway.
  if (exportsMap && typeof exportsMap === "object" && !Array.isArray(exportsMap)) {
    const keys = Object.keys(exportsMap);
    const wanted = `.${subpath}`;
    const listed = keys.some((key) => key === wanted || (key.includes("*") && new RegExp(`^${key.split("*").map(escape).join(".*")}$`).test(wanted)));
    return listed ? undefined : { kind: "deep", specifier };
  }
  return /\/(?:dist|lib|src|build|cjs|esm)\//.test(`${subpath}/`) ? { kind: "deep", specifier } : undefined;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function exportsFromInstalled(name: string): unknown {
  try {
    const manifest = createRequire(join(root, "package.json")).resolve(`${name}/package.json`);
    return JSON.parse(readFileSync(manifest, "utf8")).exports;
  } catch {
    return undefined;
  }
}

describe("the import rule itself", () => {
  const declared = new Set(["ajv", "yaml", "@stoplight/prism-http", "@faker-js/faker"]);
  const exportsOf = (name: string) => ({ yaml: { ".": "./dist/index.js", "./util": "./dist/util.js" }, "@faker-js/faker": { ".": "./x", "./locale/*": "./y" } })[name];
  const cases: [string, { given: string; want: ImportProblem | undefined }][] = [
    ["a declared package", { given: "@stoplight/prism-http", want: undefined }],
    ["a node built-in", { given: "node:fs", want: undefined }],
    ["a relative file", { given: "../server/spec.js", want: undefined }],
    ["an installed but undeclared package", { given: "@stoplight/types", want: { kind: "undeclared", specifier: "@stoplight/types" } }],
    ["a file inside a package's dist/", { given: "@stoplight/prism-http/dist/utils/operations.js", want: { kind: "deep", specifier: "@stoplight/prism-http/dist/utils/operations.js" } }],
    ["a subpath the exports map lists", { given: "yaml/util", want: undefined }],
    ["a subpath a wildcard of the exports map covers", { given: "@faker-js/faker/locale/de", want: undefined }],
    ["a subpath the exports map does not list", { given: "yaml/dist/compose/composer.js", want: { kind: "deep", specifier: "yaml/dist/compose/composer.js" } }],
    ["Ajv's documented 2020-12 entry", { given: "ajv/dist/2020.js", want: undefined }],
    ["another file of Ajv's dist/", { given: "ajv/dist/compile/index.js", want: { kind: "deep", specifier: "ajv/dist/compile/index.js" } }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    expect(problemOf(given, declared, exportsOf)).toEqual(want);
  });

  test("finds specifiers in every form a file writes them", () => {
    const source = `import a from "a";\nimport type { B } from "b";\nexport { c } from "c";\nimport "d";\nawait import("e");\nrequire("f");\ncreateRequire(import.meta.url)("g");\nrequire.resolve("h/package.json");`;
    expect(specifiersOf(source)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h/package.json"]);
  });
});

test.each(FOLDERS)("every import in %s/ is a declared dependency through its public entry", (folder) => {
  const problems: string[] = [];
  for (const file of sourceFiles(join(root, folder))) {
    const declared = declaredFor(file);
    for (const specifier of specifiersOf(readFileSync(file, "utf8"))) {
      const problem = problemOf(specifier, declared, exportsFromInstalled);
      if (problem) problems.push(`${relative(root, file)}: ${problem.kind === "deep" ? "deep import of another package's files" : "import of an undeclared package"}: ${specifier}`);
    }
  }
  expect(problems).toEqual([]);
});

// The browser bundle's aliases are imports the build makes on the sources' behalf: each names a
// stand-in of scripts/browser-shims/ or a package's public entry, never a file inside a package
// (jsonc-parser's ES build is reached through the "module" entry its package.json declares).
test("every alias of the browser bundle is a stand-in or a public entry", () => {
  const shims = join(root, "scripts/browser-shims/");
  const declared = declaredFor(join(root, "scripts/lib/msw-bundle.ts"));
  const problems = Object.entries(BROWSER_ALIASES).flatMap(([from, to]) => {
    if (to.startsWith(shims) && existsSync(to)) return [];
    const problem = problemOf(to, declared, exportsFromInstalled);
    return problem ? [`${from} -> ${to}: ${problem.kind === "deep" ? "a file inside a package" : "an undeclared package"}`] : [];
  });
  expect(problems).toEqual([]);
});
