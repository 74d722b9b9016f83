// Which runtime each webhooks entry needs, read from the sources: "hr-service-contract/webhooks"
// loads no Node built-in, no package and uses no Node global (edge runtimes, workers, browsers);
// "hr-service-contract/webhooks/node" adds node:crypto and node:http and nothing else.
import { readdirSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { importGraph } from "../support/import-graph.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const EDGE_SNIPPET = "test/readme/edge-snippet.ts";

describe("hr-service-contract/webhooks (src/webhooks/index.ts)", () => {
  const graph = importGraph(repo, "src/webhooks/index.ts");

  it("reaches its verifier modules", () => {
    expect(graph.modules, "modules reached from the entry").toEqual(
      expect.arrayContaining(["src/webhooks/signature.ts", "src/webhooks/web-crypto.ts", "src/webhooks/construct-event.ts", "src/webhooks/errors.ts"]),
    );
  });

  it("reaches no node: import and no package", () => {
    expect(graph.bare, "non-relative run-time imports (and who imports them)").toEqual({});
  });

  it("reaches nothing of src/webhooks/node/", () => {
    expect(graph.modules.filter((m) => m.startsWith("src/webhooks/node/")), "Node-only modules reached").toEqual([]);
  });

  it("type-checks, with the edge snippet, against Web Worker types alone (no @types/node: no Buffer, process, node:)", () => {
    const program = ts.createProgram([path.join(repo, "src/webhooks/index.ts"), path.join(repo, EDGE_SNIPPET)], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2022.d.ts", "lib.webworker.d.ts"],
      types: [],
      resolveJsonModule: true,
      skipLibCheck: true,
      paths: { "hr-service-contract/webhooks": [path.join(repo, "src/webhooks/index.ts")] },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? path.relative(repo, d.file.fileName) : "?"}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems, "type errors without Node's types").toEqual([]);
    const loaded = program.getSourceFiles().map((f) => path.relative(repo, f.fileName)).filter((f) => !f.startsWith("node_modules/"));
    expect(loaded, "no file of src/webhooks/node/ is part of the program").not.toContainEqual(expect.stringMatching(/^src\/webhooks\/node\//));
  });
});

describe("the package's main entry (src/index.ts: client and webhooks)", () => {
  it("loads no Node built-in; its only package is the client's openapi-fetch", () => {
    expect(importGraph(repo, "src/index.ts").bare, "non-relative run-time imports").toEqual({ "openapi-fetch": ["generated/client.ts"] });
  });
});

describe("hr-service-contract/webhooks/node (src/webhooks/node/)", () => {
  const builtins = new Set(builtinModules);
  const files = readdirSync(path.join(repo, "src/webhooks/node")).filter((f) => f.endsWith(".ts"));

  it("holds the Node receiver and the synchronous verifier", () => {
    expect(files.sort(), "src/webhooks/node/*.ts").toEqual(["construct-event.ts", "index.ts", "receiver.ts", "signature.ts"]);
  });

  it("loads Node built-ins and the package's own modules only", () => {
    const { bare, modules } = importGraph(repo, "src/webhooks/node/index.ts");
    const notBuiltins = Object.keys(bare).filter((specifier) => !(specifier.startsWith("node:") && builtins.has(specifier.slice(5))));
    expect(notBuiltins, "packages or unprefixed built-ins loaded by the Node entry").toEqual([]);
    expect(Object.keys(bare).sort(), "Node built-ins").toEqual(["node:crypto", "node:http"]);
    expect(modules.filter((m) => !m.startsWith("src/webhooks/")), "modules outside src/webhooks").toEqual(["generated/webhook-facts.ts"]);
  });
});
