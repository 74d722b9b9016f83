// `npm pack` gives a real package: compiled ES modules with declarations, entry points that exist,
// a bin that runs with plain node, and a webhook verifier that needs nothing but Node.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildPackage } from "../../scripts/build-package.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
const dist = (p: string) => path.join(repoRoot, p);
const node = (args: string[]) => spawnSync(process.execPath, args, { cwd: repoRoot, encoding: "utf8", timeout: 60_000 });

/** Relative and bare import specifiers of a compiled module. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  return [...text.matchAll(/(?:import|export)[^"']*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] ?? m[2]);
}

describe("the package", () => {
  beforeAll(() => buildPackage(), 180_000);

  it.each(Object.entries<any>(pkg.exports).map(([k, v]) => [k, v] as [string, any]))("export %s points at built files", (_name, target) => {
    const files = typeof target === "string" ? [target] : Object.values<string>(target);
    for (const file of files) expect(fs.existsSync(dist(file)), `${file} is missing after npm run build`).toBe(true);
  });

  it("has one runtime dependency (openapi-fetch); the mock's libraries are optional peers", () => {
    expect(Object.keys(pkg.dependencies)).toEqual(["openapi-fetch"]);
    for (const name of Object.keys(pkg.peerDependencies)) {
      expect(pkg.peerDependenciesMeta?.[name]?.optional, `peer ${name} must be optional`).toBe(true);
    }
  });

  it("the webhook helpers import only Node built-ins, each other and the generated webhook facts (which import nothing)", () => {
    const dir = dist("dist/src/webhooks");
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".js"))) {
      const foreign = importsOf(path.join(dir, file)).filter((s) => !s.startsWith("node:") && !/^\.\/[\w-]+\.js$/.test(s) && s !== "../../generated/webhook-facts.js");
      expect(foreign, `dist/src/webhooks/${file} imports more than node built-ins`).toEqual([]);
    }
    expect(importsOf(dist("dist/generated/webhook-facts.js")), "the generated webhook facts are constants only").toEqual([]);
  });

  it("the bin runs with plain node", () => {
    const run = node([dist(pkg.bin["hr-mock"]), "--help"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("hr-mock <command>");
    const bad = node([dist(pkg.bin["hr-mock"]), "serve", "--prot", "1"]);
    expect(bad.status, "a bad flag exits non-zero").not.toBe(0);
    expect(bad.stderr.trim().split("\n"), "a bad flag is one line").toHaveLength(1);
  });

  it("the built mock serves the API and the built verifier verifies, with plain node", () => {
    const script = `
      const { startMock } = await import(${JSON.stringify(dist(pkg.exports["./mock"].import))});
      const { sign, verify } = await import(${JSON.stringify(dist(pkg.exports["./webhooks"].import))});
      const mock = await startMock({ port: 0, rateLimit: "off" });
      const res = await fetch(mock.url + "/v1/leavetype/list", { headers: { authorization: "Bearer demo_org1_full" } });
      const body = await res.json();
      await mock.close();
      const header = sign("{}", "whsec_test", { timestamp: 1700000000 });
      verify("{}", header, "whsec_test", { now: 1700000000 });
      console.log(res.status, body.isSuccessful, Array.isArray(body.data.data));`;
    const run = node(["--input-type=module", "-e", script]);
    expect(run.stderr, "the built package failed under plain node").toBe("");
    expect(run.stdout.trim()).toBe("200 true true");
  }, 60_000);

  it("npm pack ships dist/, the specs and the README, not the tests", () => {
    const run = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repoRoot, encoding: "utf8" });
    const files: string[] = JSON.parse(run.stdout)[0].files.map((f: any) => f.path);
    for (const want of ["dist/src/index.js", "dist/src/index.d.ts", "dist/mock/cli.js", "dist/generated/openapi.json", "dist/generated/api.d.ts", "openapi/openapi.yaml", "asyncapi/asyncapi.yaml", "README.md"]) {
      expect(files, `npm pack must include ${want}`).toContain(want);
    }
    expect(files.filter((f) => f.startsWith("test/")), "npm pack must not ship tests").toEqual([]);
  }, 60_000);
});
