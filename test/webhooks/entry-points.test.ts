// Which runtime each webhooks entry needs, read from the sources: "hr-service-contract/webhooks"
// loads no Node built-in, no package and uses no Node global (edge runtimes, workers, browsers);
// "hr-service-contract/webhooks/node" adds node:crypto and node:http and nothing else.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { errorsByFile, nativeTsc, STRICT_CHECK } from "../../scripts/lib/native-tsc.js";
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

  it("type-checks, with the edge snippet, against Web Worker types alone (no @types/node: no Buffer, process, node:)", async () => {
    // TypeScript 7 in a child process (scripts/lib/native-tsc.ts): the Web Worker library alone took
    // TypeScript 5 in the worker most of this file's CPU.
    const project = mkdtempSync(path.join(tmpdir(), "hr-edge-types-"));
    try {
      const compilerOptions = {
        ...STRICT_CHECK,
        lib: ["es2022", "webworker"],
        resolveJsonModule: true,
        paths: { "hr-service-contract/webhooks": [path.join(repo, "src/webhooks/index.ts")] },
      };
      writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [path.join(repo, "src/webhooks/index.ts"), path.join(repo, EDGE_SNIPPET)] }));
      const { status, output } = await nativeTsc(["-p", project, "--listFiles"], project);
      // --listFiles prints each file of the program, an absolute path alone on its line; the rest is diagnostics.
      const lines = output.split("\n");
      const isListed = (line: string) => path.isAbsolute(line) && /\.(ts|json)$/.test(line);
      const problems = [...errorsByFile(lines.filter((line) => !isListed(line)).join("\n"))].flatMap(([file, errors]) =>
        errors.map((error) => (file === "(no file)" ? error : `${path.relative(repo, path.resolve(project, file))}${error.slice(file.length)}`)),
      );
      expect(problems, "type errors without Node's types").toEqual([]);
      expect(status, `tsc's exit status; it printed:\n${output.slice(0, 2000)}`).toBe(0);
      const loaded = lines.filter(isListed).map((file) => path.relative(repo, file)).filter((file) => !file.startsWith("node_modules/"));
      expect(loaded, "the program holds the entry and the snippet").toEqual(expect.arrayContaining(["src/webhooks/index.ts", EDGE_SNIPPET]));
      expect(loaded, "no file of src/webhooks/node/ is part of the program").not.toContainEqual(expect.stringMatching(/^src\/webhooks\/node\//));
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
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
    // The webhook facts, and the one reading of a request target (the receiver's path), which the mock reads too.
    expect(modules.filter((m) => !m.startsWith("src/webhooks/")).sort(), "modules outside src/webhooks").toEqual(["generated/webhook-facts.ts", "src/query.ts"]);
  });
});
