// The packages as users get them: both are built and packed, then installed from the tarballs into
// empty projects, as a frontend team, an integration team and a CI pipeline would install them.
// Their dependencies come from npm's cache (filled by the repository's own install) or the registry.
// - app: hr-service-contract + hr-service-mock; `hr-mock serve` answers a demo key and serves /docs,
//   `hr-contract` passes against it, a missing library is named in one line.
// - light: hr-service-contract alone (a receiver or a frontend): no Prism, faker or Ajv, under 3 MB,
//   the webhooks entry works under plain node, hr-contract receiver grades the package's own receiver.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPackages, PACKAGES } from "../../scripts/build-package.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const MOCK_LIBRARIES = ["@stoplight/prism-http", "@stoplight/prism-core", "@faker-js/faker", "ajv", "ajv-formats"];
const LIGHT_LIMIT_BYTES = 3 * 1024 * 1024;

const manifests = {
  contract: JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")),
  mock: JSON.parse(fs.readFileSync(path.join(repoRoot, "mock/package.json"), "utf8")),
};

let work: string;
const tarballs: Record<"contract" | "mock", string> = { contract: "", mock: "" };
const projects = { app: "", light: "" };
const packed: Record<"contract" | "mock", string[]> = { contract: [], mock: [] };

function run(command: string, args: string[], cwd: string, timeout = 120_000) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout, env: { ...process.env, NO_COLOR: "1" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status ?? result.signal}): ${(result.stderr || result.stdout).trim().split("\n").slice(-5).join(" | ")}`);
  return result.stdout;
}

function pack(workspace: string[]): { file: string; files: string[] } {
  // Built once above; --ignore-scripts keeps npm from building again in prepack.
  const out = run("npm", ["pack", ...workspace, "--ignore-scripts", "--json", "--pack-destination", work], repoRoot);
  const [info] = JSON.parse(out.slice(out.indexOf("[")));
  return { file: path.join(work, info.filename), files: info.files.map((f: { path: string }) => f.path) };
}

function install(name: string, files: string[]): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `try-${name}`, version: "1.0.0", private: true, type: "module" }));
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...files], dir, 180_000);
  return dir;
}

/** Bytes of every file under a folder (what the install costs on disk, block rounding aside). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

const bin = (project: string, name: string) => path.join(project, "node_modules", ".bin", name);

/** Starts the installed hr-mock on a free port and resolves with its URL from the banner. */
function startInstalledMock(project: string): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [bin(project, "hr-mock"), "serve", "--port", "0"], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hr-mock serve printed no API address within 60 s: ${stdout}${stderr}`)), 60_000);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const url = /API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (url) clearTimeout(timer), resolve({ url, child, stderr: () => stderr });
    });
    child.on("exit", (code) => reject(new Error(`hr-mock serve exited (${code}) before it was ready: ${stderr.trim()}`)));
  });
}

function runNode(project: string, args: string[]) {
  return spawnSync(process.execPath, args, { cwd: project, encoding: "utf8", timeout: 120_000 });
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "hr-packages-"));
  await buildPackages();
  const contract = pack([]);
  const mock = pack(["--workspace", "mock"]);
  [tarballs.contract, packed.contract, tarballs.mock, packed.mock] = [contract.file, contract.files, mock.file, mock.files];
  projects.app = install("app", [tarballs.contract, tarballs.mock]);
  projects.light = install("light", [tarballs.contract]);
}, 400_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("the tarballs", () => {
  it.each([
    ["hr-service-contract", "contract", ["dist/src/index.js", "dist/src/index.d.ts", "dist/src/contract/cli.js", "dist/generated/openapi.json", "dist/generated/api.d.ts", "README.md"]],
    ["hr-service-mock", "mock", ["bin/hr-mock.js", "dist/mock/cli.js", "dist/mock/index.d.ts", "dist/mock/msw/index.js", "dist/mock/msw/index.d.ts", "dist/generated/openapi.json", "dist/generated/control-openapi.json", "dist/site/index.html", "dist/site/events.html"]],
  ] as const)("%s ships what it runs, and no tests or sources", (_name, which, wanted) => {
    const files = packed[which];
    for (const want of wanted) expect(files, `the tarball lacks ${want}`).toContain(want);
    expect(files.filter((f) => f.startsWith("test/") || f.endsWith(".ts") && !f.endsWith(".d.ts")), "tests or TypeScript sources in the tarball").toEqual([]);
  });

  it.each(["contract", "mock"] as const)("every export of the %s package points at a packed file", (which) => {
    const targets = Object.values<string | Record<string, string>>(manifests[which].exports).flatMap((t) => (typeof t === "string" ? [t] : Object.values(t)));
    const missing = targets.map((t) => t.replace(/^\.\//, "")).filter((t) => !packed[which].includes(t));
    expect(missing, `exports of ${manifests[which].name} with no file in the tarball`).toEqual([]);
  });
});

describe("installed with the mock (frontend and integration teams, CI against the mock)", () => {
  let mock: Awaited<ReturnType<typeof startInstalledMock>>;
  beforeAll(async () => {
    mock = await startInstalledMock(projects.app);
  }, 90_000);
  afterAll(() => {
    mock?.child.kill("SIGTERM");
  });

  it("hr-mock serve answers a demo key's request with seeded data", async () => {
    const res = await fetch(`${mock.url}/v1/leaverequest/list?PageSize=1`, { headers: { authorization: "Bearer demo_org1_full" } });
    const body = (await res.json()) as { isSuccessful: boolean; data: { data: unknown[]; totalRecords: number } };
    expect(res.status, "status of a demo key's list request").toBe(200);
    expect(body.isSuccessful).toBe(true);
    expect(body.data.data, "one leave request on the page").toHaveLength(1);
    expect(body.data.totalRecords, "the seeded leave requests of organisation 1").toBeGreaterThan(100);
  });

  it.each(["", "api.html", "events.html", "assumptions.html", "keys.html"])("serves the built docs site: /docs/%s", async (page) => {
    const res = await fetch(`${mock.url}/docs/${page}`);
    expect(res.status, `/docs/${page}`).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain('id="site-nav"');
  });

  // --rate 50: the suite's ~90 requests stay under the mock's 300 a minute without the default's 22 s of pacing.
  it("hr-contract of the light install (no Prism, faker or Ajv) passes against it", () => {
    const junit = path.join(work, "contract-junit.xml");
    const result = runNode(projects.light, [bin(projects.light, "hr-contract"), "--base-url", mock.url, "--api-key", "demo_org1_full", "--junit", junit, "--rate", "50"]);
    expect(result.status, `hr-contract exit status; stderr: ${result.stderr.slice(-400)}`).toBe(0);
    expect(result.stdout, "the report's result line").toMatch(/^RESULT: /m);
    expect(result.stdout).toMatch(/VIOLATIONS \(0\)/);
    expect(fs.readFileSync(junit, "utf8")).toContain("<testsuites");
  }, 120_000);

  it("hr-mock diff compares the packed contract with the installed one: no breaking change", () => {
    const result = runNode(projects.app, [bin(projects.app, "hr-mock"), "diff", tarballs.contract]);
    expect(result.status, `hr-mock diff exit status; stderr: ${result.stderr.slice(-400)}`).toBe(0);
    expect(result.stdout).toMatch(/^OK: no unacknowledged breaking change$/m);
  }, 60_000);

  describe("hr-service-mock/msw, once the project installs msw itself (an optional peer: hr-mock runs without it)", () => {
    beforeAll(() => {
      run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", `msw@${manifests.contract.devDependencies.msw}`], projects.app, 180_000);
    }, 240_000);

    it("answers the typed client under msw/node", () => {
      const script = `
        import { setupServer } from "msw/node";
        import { createHandlers } from "hr-service-mock/msw";
        import { createClient, HrApiError } from "hr-service-contract/client";
        const server = setupServer(...createHandlers({ seed: 3, today: "2026-04-01", baseUrl: "http://hr.invalid" }));
        server.listen({ onUnhandledRequest: "error" });
        const page = await createClient({ baseUrl: "http://hr.invalid", apiKey: "demo_org1_full", retry: false }).listLeaveTypes({ PageSize: 2 });
        let refused = "";
        await createClient({ baseUrl: "http://hr.invalid", apiKey: "demo_org1_leave_view", retry: false }).listDepartments().catch((error) => { refused = error instanceof HrApiError ? error.kind + " " + error.status : String(error); });
        server.close();
        console.log(page.data.length, refused);`;
      const result = runNode(projects.app, ["--input-type=module", "-e", script]);
      expect(result.stderr, "the msw entry failed in the installed packages").toBe("");
      expect(result.stdout.trim(), "two leave types read, and a 403 for the key without the permission").toBe("2 permission 403");
    });

    it("bundles for a browser with a bundler's defaults: the browser condition gives the prebuilt handlers", async () => {
      const entry = `import { setupWorker } from "msw/browser"; import { createHandlers } from "hr-service-mock/msw"; export const start = () => setupWorker(...createHandlers()).start();`;
      const result = await build({ stdin: { contents: entry, resolveDir: projects.app, loader: "js" }, bundle: true, format: "esm", platform: "browser", write: false, logLevel: "silent", metafile: true });
      const fromMock = Object.keys(result.metafile.inputs).filter((file) => file.includes("node_modules/hr-service-mock/"));
      expect(fromMock.map((file) => file.slice(file.indexOf("hr-service-mock/"))), "files of hr-service-mock in a browser bundle").toEqual(["hr-service-mock/dist/mock/msw/browser.js"]);
    });
  });

  it("hr-service-mock/vitest's matcher runs on the installed mock without vitest installed", () => {
    expect(fs.existsSync(path.join(projects.app, "node_modules", "vitest")), "vitest is not in the project").toBe(false);
    const script = `
      import { startMock } from "hr-service-mock";
      import { toHaveReceived } from "hr-service-mock/vitest";
      const mock = await startMock({ port: 0 });
      await fetch(mock.url + "/v1/leavetype/list", { headers: { authorization: "Bearer demo_org1_full" } }).then((r) => r.arrayBuffer());
      const held = await toHaveReceived.call({}, mock, { operationId: "listLeaveTypes" }, { times: 1 });
      const failed = await toHaveReceived.call({}, mock, { operationId: "listEmployees" });
      await mock.close();
      console.log(held.pass, failed.pass, failed.message().split("\\n")[0]);`;
    const result = runNode(projects.app, ["--input-type=module", "-e", script]);
    expect(result.stderr, "the vitest entry failed in the installed packages").toBe("");
    expect(result.stdout.trim()).toBe("true false Expected listEmployees (GET /v1/employee/list) to be received at least once; it was received 0 times (1 request in the journal).");
  }, 60_000);

  it("a missing runtime library is one line naming the package to install", () => {
    const faker = path.join(projects.app, "node_modules", "@faker-js", "faker");
    const away = `${faker}.away`;
    fs.renameSync(faker, away);
    try {
      const result = runNode(projects.app, [bin(projects.app, "hr-mock"), "serve", "--port", "0"]);
      expect(result.status, "exit status without faker").toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines, "stderr is one line, not a stack trace").toHaveLength(1);
      expect(lines[0]).toMatch(/@faker-js\/faker.*npm install @faker-js\/faker/);
    } finally {
      fs.renameSync(away, faker);
    }
  });
});

describe("installed alone (a webhook receiver, a frontend, a CI job checking a deployment)", () => {
  it("installs no mock library, within 3 MB", () => {
    const modules = path.join(projects.light, "node_modules");
    const present = MOCK_LIBRARIES.filter((name) => fs.existsSync(path.join(modules, name)));
    expect(present, "mock libraries in a light install").toEqual([]);
    const bytes = sizeOf(modules);
    expect(bytes, `node_modules holds ${(bytes / 1024 / 1024).toFixed(2)} MB`).toBeLessThanOrEqual(LIGHT_LIMIT_BYTES);
  });

  it("its runtime dependencies are the ones the light package declares", () => {
    expect(Object.keys(manifests.contract.dependencies ?? {}).filter((name) => MOCK_LIBRARIES.includes(name)), "mock libraries declared").toEqual([]);
  });

  it("the webhooks entries sign and verify under plain node: webhooks/node synchronously, webhooks on Web Crypto", () => {
    const script = `
      import { sign, verify } from "hr-service-contract/webhooks/node";
      import { verifyAsync } from "hr-service-contract/webhooks";
      const header = sign("{}", "whsec_test", { timestamp: 1700000000 });
      verify("{}", header, "whsec_test", { now: 1700000000 });
      await verifyAsync("{}", header, "whsec_test", { now: 1700000000 });
      let refused = "";
      try { verify("{ }", header, "whsec_test", { now: 1700000000 }); } catch (error) { refused = error.name; }
      let refusedAsync = "";
      await verifyAsync("{ }", header, "whsec_test", { now: 1700000000 }).catch((error) => { refusedAsync = error.name; });
      console.log(header.startsWith("t=1700000000,v1="), refused, refusedAsync);`;
    const result = runNode(projects.light, ["--input-type=module", "-e", script]);
    expect(result.stderr, "a webhooks entry failed under plain node").toBe("");
    expect(result.stdout.trim(), "signed, verified (both ways), and a changed body refused (both ways)").toBe("true WebhookSignatureError WebhookSignatureError");
  });

  it("the client entry loads and builds a client", () => {
    const script = `
      import { createClient } from "hr-service-contract/client";
      const hr = createClient({ baseUrl: "http://127.0.0.1:9", apiKey: "demo_org1_full" });
      console.log(typeof hr.listLeaveRequests, typeof hr.iterate);`;
    const result = runNode(projects.light, ["--input-type=module", "-e", script]);
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("function function");
  });

  it("hr-contract answers --help with its usage, and bad usage with one line and exit 2", () => {
    const help = runNode(projects.light, [bin(projects.light, "hr-contract"), "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: hr-contract --base-url URL --api-key KEY/);
    const bad = runNode(projects.light, [bin(projects.light, "hr-contract"), "--base-urll", "x"]);
    expect(bad.status, "exit status of bad usage").toBe(2);
    expect(bad.stderr.trim().split("\n"), "one line").toHaveLength(1);
  });

  it("hr-contract with a --junit under /proc exits 2 with one line (it once spun at 100 % CPU there)", () => {
    const result = runNode(projects.light, [bin(projects.light, "hr-contract"), "--base-url", "http://127.0.0.1:9", "--api-key", "k", "--junit", "/proc/nope/x.xml"]);
    expect({ status: result.status, signal: result.signal, stderr: result.stderr }).toEqual({ status: 2, signal: null, stderr: "hr-contract: --junit /proc/nope/x.xml: cannot write there (ENOENT)\n" });
  });

  it("hr-contract receiver grades a receiver made with the package's own createReceiver: every case passes, exit 0", async () => {
    const script = `
      import { createReceiver, listen } from "hr-service-contract/webhooks/node";
      const receiver = await listen(createReceiver({ secret: "whsec_light_install", onEvent() {} }), { port: 0 });
      console.log(receiver.url);`;
    const receiver = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: projects.light, stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        receiver.stdout!.setEncoding("utf8").once("data", (chunk: string) => resolve(chunk.trim()));
        receiver.once("exit", (code) => reject(new Error(`the receiver exited (${code})`)));
      });
      const check = spawn(process.execPath, [bin(projects.light, "hr-contract"), "receiver", "--url", `${url}/hooks`, "--secret", "whsec_light_install", "--junit", "receiver.xml"], { cwd: projects.light, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      check.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      const code = await new Promise<number | null>((resolve) => check.on("close", resolve));
      expect(code, stdout).toBe(0);
      expect(stdout).toMatch(/\nRESULT: the receiver follows the provider's rules in all \d+ cases\n$/);
      expect(fs.readFileSync(path.join(projects.light, "receiver.xml"), "utf8")).toMatch(/failures="0" errors="0"/);
    } finally {
      receiver.kill();
    }
  }, 60_000);
});

it("the build leaves each package's bins executable", () => {
  for (const [name, target] of Object.entries(PACKAGES)) {
    for (const file of target.bins) expect(fs.statSync(path.join(target.dir, file)).mode & 0o111, `${name}: ${file} is not executable`).not.toBe(0);
  }
});
