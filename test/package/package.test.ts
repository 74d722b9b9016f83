// The packages as users get them: both are built and packed, then installed from the tarballs into
// empty projects, as a frontend team, an integration team and a CI pipeline would install them
// (scripts/lib/packed-install.ts). Their dependencies come from npm's cache or the registry.
// - app: hr-service-contract + hr-service-mock; `hr-mock serve` answers a demo key and serves /docs,
//   `hr-contract` passes against it, the mock's bundle brings no library of its own, within 25 MB.
// - msw: a copy of app that then installs msw (the mock's optional peer) itself, while app's checks
//   run without it: hr-service-mock/msw under msw/node, its declarations in a Node and a browser
//   project, its browser build in a bundler's output.
// - light: hr-service-contract alone (a receiver or a frontend): no Prism, faker or Ajv, under 3 MB,
//   the webhooks entry works under plain node, hr-contract receiver grades the package's own receiver.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGES } from "../../scripts/build-package.js";
import { addTo, sizeOf } from "../../scripts/lib/packed-install.js";
import { keepForMatrix } from "../../scripts/node-matrix.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { installedBeyond, installedPackages } from "../support/packed-install.js";
import { bin, BROWSER_PROJECT, NODE_PROJECT, runInstalledCli, runInstalledContract, runNode, runNodeAside, startInstalledMock, typeErrors } from "./installed.js";
import { sharedStateChecks } from "./shared-state.js";

const MOCK_LIBRARIES = ["@stoplight/prism-http", "@stoplight/prism-core", "@faker-js/faker", "ajv", "ajv-formats"];
const LIGHT_LIMIT_BYTES = 3 * 1024 * 1024;
/** Both packages installed together (issue 23: about 100 MB before the mock was bundled). */
const APP_LIMIT_BYTES = 25 * 1024 * 1024;

const manifests = {
  contract: JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")),
  mock: JSON.parse(fs.readFileSync(path.join(repoRoot, "mock/package.json"), "utf8")),
};

const tarballs = { contract: "", mock: "" };
const projects = { app: "", light: "", msw: "" };
const packed: Record<"contract" | "mock", string[]> = { contract: [], mock: [] };
let work: string;
/** node_modules of the app project as installed. */
let appBytes = 0;
/** npm install msw in the msw project, started once the app project is copied. */
let mswInstalled: Promise<void>;

// The run's packed install (test/support/packed-install.ts), removed with the run's folder.
beforeAll(async () => {
  const installed = await installedPackages();
  work = installed.work;
  [tarballs.contract, packed.contract, tarballs.mock, packed.mock] = [installed.tarballs.contract.file, installed.tarballs.contract.files, installed.tarballs.mock.file, installed.tarballs.mock.files];
  [projects.app, projects.light] = [installed.app, installed.light];
  appBytes = sizeOf(path.join(projects.app, "node_modules"));
  // The app project as installed, copied before any check changes it; msw installs into the copy
  // while the checks without msw run (.bin's links stay relative, as npm made them).
  projects.msw = path.join(work, "msw");
  fs.cpSync(projects.app, projects.msw, { recursive: true, verbatimSymlinks: true });
  // As installed, before any check writes into it, it is also the Node matrix's install of this tree.
  mswInstalled = addTo(projects.msw, [`msw@${manifests.contract.devDependencies.msw}`]).then(() => keepForMatrix(projects.msw));
  // Its failure is reported by the checks that await it.
  mswInstalled.catch(() => {});
}, 400_000);

describe("the tarballs", () => {
  it.each([
    ["hr-service-contract", "contract", ["dist/src/index.js", "dist/src/index.d.ts", "dist/src/contract/cli.js", "dist/generated/openapi.json", "dist/generated/api.d.ts", "README.md"]],
    ["hr-service-mock", "mock", ["bin/hr-mock.js", "dist/mock/cli/main.js", "dist/mock/index.d.ts", "dist/mock/msw/index.js", "dist/mock/msw/index.d.ts", "dist/mock/playwright/index.js", "dist/mock/playwright/index.d.ts", "dist/generated/openapi.json", "dist/generated/control-openapi.json", "dist/site/index.html", "dist/site/events.html", "THIRD_PARTY_NOTICES"]],
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
  // The light install's command line in this process (its bin's own process: the light install's checks).
  it("hr-contract of the light install (no Prism, faker or Ajv) passes against it", async () => {
    const junit = path.join(work, "contract-junit.xml");
    const result = await runInstalledContract(projects.light, ["--base-url", mock.url, "--api-key", "demo_org1_full", "--junit", junit, "--rate", "50"]);
    expect(result.status, `hr-contract exit status; stderr: ${result.stderr.slice(-400)}`).toBe(0);
    expect(result.stdout, "the report's result line").toMatch(/^RESULT: /m);
    expect(result.stdout).toMatch(/VIOLATIONS \(0\)/);
    expect(fs.readFileSync(junit, "utf8")).toContain("<testsuites");
  }, 120_000);

  it("hr-mock diff compares the packed contract with the installed one: no breaking change", () => {
    const result = runNode(projects.app, [bin(projects.app, "hr-mock"), "diff", tarballs.contract]);
    expect(result.status, `hr-mock diff exit status; stderr: ${result.stderr.slice(-400)}`).toBe(0);
    expect(result.stdout).toMatch(/^OK: no unacknowledged breaking change$/m);
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
  });

  it("hr-mock serve --help names the data file schema where the install has it, for $schema, and the package exports it", async () => {
    const help = (await runInstalledCli(projects.app, ["serve", "--help"])).stdout;
    const installed = [...help.matchAll(/\.\/node_modules\/\S+\.json/g)].map((m) => m[0]);
    expect(installed.length, "files of the install that serve --help names").toBeGreaterThan(1);
    expect(installed.filter((file) => !fs.existsSync(path.join(projects.app, file))), "named by serve --help, missing from the install").toEqual([]);
    const named = /(\.\/node_modules\/\S+data-file\.schema\.json)/.exec(help)?.[1];
    expect(named, "a path under ./node_modules in serve --help").toBeDefined();
    const file = path.join(projects.app, named!);
    expect(JSON.parse(fs.readFileSync(file, "utf8")).title, `the schema at ${named}`).toBe("hr-mock data file");
    const resolved = runNode(projects.app, ["--input-type=module", "-e", 'console.log(import.meta.resolve("hr-service-mock/data-file.schema.json"))']);
    expect(resolved.stderr, "resolving the export").toBe("");
    expect(fs.realpathSync(new URL(resolved.stdout.trim()))).toBe(fs.realpathSync(file));
  });

  // The bundle brings every library it runs; what can still go missing is a file of its own.
  it("an installation missing one of its files is one line saying to reinstall, not a stack trace", () => {
    // In a project of its own: a copy of the installed hr-service-mock, its other packages linked.
    // The run's installation is read by other files at the same time (the CI recipes copy it), and
    // a file taken away there, even for a moment, breaks what they copy.
    const project = fs.mkdtempSync(path.join(work, "incomplete-"));
    const installed = path.join(projects.app, "node_modules");
    const modules = path.join(project, "node_modules");
    fs.mkdirSync(modules);
    for (const entry of fs.readdirSync(installed).filter((name) => !name.startsWith(".") && name !== "hr-service-mock")) fs.symlinkSync(path.join(installed, entry), path.join(modules, entry));
    fs.cpSync(path.join(installed, "hr-service-mock"), path.join(modules, "hr-service-mock"), { recursive: true, verbatimSymlinks: true });
    try {
      const cli = path.join(modules, "hr-service-mock", "dist", "mock", "cli", "main.js");
      const chunk = /from\s*"\.\.\/\.\.\/(chunks\/[^"]+\.js)"/.exec(fs.readFileSync(cli, "utf8"))?.[1];
      expect(chunk, "the command line the bin runs imports a shared chunk of the bundle").toBeDefined();
      fs.rmSync(path.join(modules, "hr-service-mock", "dist", chunk!));
      // The file the bin's link (node_modules/.bin/hr-mock) points at.
      const result = runNode(project, [path.join(modules, "hr-service-mock", manifests.mock.bin["hr-mock"]), "serve", "--port", "0"]);
      expect(result.status, "exit status with a file of the bundle missing").toBe(1);
      const lines = result.stderr.trim().split("\n");
      expect(lines, "stderr is one line, not a stack trace").toHaveLength(1);
      expect(lines[0]).toMatch(/^hr-mock: this installation of hr-service-mock is incomplete .*; reinstall it$/);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });
});

describe("the mock's bundle (its libraries inside its own files)", () => {
  it(`both packages install within ${APP_LIMIT_BYTES / 1024 / 1024} MB of node_modules`, () => {
    expect(appBytes, `node_modules of contract + mock holds ${(appBytes / 1024 / 1024).toFixed(2)} MB`).toBeLessThanOrEqual(APP_LIMIT_BYTES);
  });

  it("installs no library of the mock's: npm installed the contract's dependencies and nothing for the mock", () => {
    const modules = path.join(projects.app, "node_modules");
    expect(MOCK_LIBRARIES.filter((name) => fs.existsSync(path.join(modules, name))), "mock libraries installed beside the bundle").toEqual([]);
    expect(fs.existsSync(path.join(modules, "msw")), "msw (the mock's optional peer) in the app project, whose checks run without it").toBe(false);
    expect(fs.existsSync(path.join(modules, "@playwright", "test")), "@playwright/test (the mock's optional peer) in the app project").toBe(false);
    // What npm ls lists under hr-service-mock: what its installed manifest declares (msw and @playwright/test, its optional peers, aside).
    const installed = JSON.parse(fs.readFileSync(path.join(modules, "hr-service-mock", "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    const declared = Object.keys({ ...installed.dependencies, ...installed.optionalDependencies, ...installed.peerDependencies }).filter((name) => name !== "msw" && name !== "@playwright/test");
    expect(declared, "dependencies the installed hr-service-mock declares").toEqual([]);
    expect(installedBeyond(projects.app, ["hr-service-contract"]), "packages npm installed beyond hr-service-contract and what it needs").toEqual(["node_modules/hr-service-mock"]);
    expect(Object.keys(manifests.mock.dependencies ?? {}), "hr-service-mock declares runtime dependencies").toEqual([]);
  });

  it("THIRD_PARTY_NOTICES names each bundled library with its version and licence text", () => {
    const notices = fs.readFileSync(path.join(projects.app, "node_modules", "hr-service-mock", "THIRD_PARTY_NOTICES"), "utf8");
    // ioredis (loaded for --state redis:// only) and prom-client (loaded by the first GET /_mock/metrics), and the packages they depend on, as their manifests name them.
    const dependencies = (name: string) => Object.keys(JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules", name, "package.json"), "utf8")).dependencies);
    for (const name of [...MOCK_LIBRARIES, "yaml", "fp-ts", "lodash", "ioredis", ...dependencies("ioredis"), "prom-client", ...dependencies("prom-client"), ...dependencies("tdigest")]) {
      const version = JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules", name, "package.json"), "utf8")).version as string;
      expect(notices, `THIRD_PARTY_NOTICES lacks ${name} ${version}`).toContain(`\n${name} ${version}\nLicense: `);
    }
    expect(notices, "a package listed without a declared licence").not.toMatch(/^License: UNKNOWN$/m);
    expect(notices, "MIT licence texts").toMatch(/Permission is hereby granted, free of charge/);
  });

  // The bin's own process for the first; each command's module from the installed bundle, in this
  // process, for the others (what the bin runs: the command line's run()).
  it.each(["--help", "serve --help", "trigger --help", "receive --help", "diff --help", "scenario --help", "export --help"])("hr-mock %s answers from the installed bundle", async (args) => {
    const result = args === "--help" ? runNode(projects.app, [bin(projects.app, "hr-mock"), ...args.split(" ")]) : await runInstalledCli(projects.app, args.split(" "));
    expect(result.stderr, `hr-mock ${args} wrote to stderr`).toBe("");
    expect(result.status, `hr-mock ${args} exit status`).toBe(0);
    expect(result.stdout, `hr-mock ${args} printed no usage`).toMatch(/^Usage: hr-mock/m);
  });
});

sharedStateChecks({ project: () => projects.app, start: startInstalledMock });

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
      // The command line in this process (the bin's own process: the checks above).
      const check = await runInstalledContract(projects.light, ["receiver", "--url", `${url}/hooks`, "--secret", "whsec_light_install", "--junit", path.join(projects.light, "receiver.xml")]);
      expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
      expect(check.stdout).toMatch(/\nRESULT: the receiver follows the provider's rules in all \d+ cases\n$/);
      expect(fs.readFileSync(path.join(projects.light, "receiver.xml"), "utf8")).toMatch(/failures="0" errors="0"/);
    } finally {
      receiver.kill();
    }
  });
});

// Side by side: each check waits on a process of its own (node, tsc) or on esbuild.
describe.concurrent("hr-service-mock/msw, once the project installs msw itself (an optional peer: the app project's checks run without it)", () => {
  beforeAll(() => mswInstalled, 240_000);

  it("answers the typed client under msw/node", async () => {
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
    const result = await runNodeAside(projects.msw, ["--input-type=module", "-e", script]);
    expect(result.stderr, "the msw entry failed in the installed packages").toBe("");
    expect(result.stdout.trim(), "two leave types read, and a 403 for the key without the permission").toBe("2 permission 403");
  });

  it("its declarations type-check in a project that checks its libraries' types (skipLibCheck off)", async () => {
    const consumer = path.join(projects.msw, "consumer.ts");
    fs.writeFileSync(consumer, `
      import { startMock, DEMO_KEY, type StartMockOptions, type RunningMock } from "hr-service-mock";
      import { createHandlers, type MockHandlersOptions } from "hr-service-mock/msw";
      const options: StartMockOptions = { port: 0, seed: 2 };
      const handlers: MockHandlersOptions = { seed: 2 };
      export const started: Promise<RunningMock> = startMock(options);
      export const all = [DEMO_KEY, createHandlers(handlers).length];
      // @ts-expect-error a port is a number
      export const wrong: StartMockOptions = { port: "4010" };`);
    // Checked as tsc with skipLibCheck off checks them; the errors that count are the consumer's
    // and the package's own declaration files' (not those of @types/node or msw they lead to).
    const { files, errors } = await typeErrors(consumer, NODE_PROJECT, (file) => file === consumer || file.includes("/node_modules/hr-service-mock/"));
    expect(files, "the package's declaration files the consumer reads").toContain("node_modules/hr-service-mock/dist/mock/index.d.ts");
    expect(errors, "type errors in the installed declarations or their consumer").toBe("");
  });

  it("the MSW entry and the client type-check in a browser project: DOM, no @types/node, skipLibCheck off", async () => {
    const consumer = path.join(projects.msw, "browser-consumer.ts");
    fs.writeFileSync(consumer, `
      import { setupWorker } from "msw/browser";
      import { createHandlers, type MockHandlersOptions } from "hr-service-mock/msw";
      import { createClient, HrApiError } from "hr-service-contract/client";
      const options: MockHandlersOptions = { seed: 2, baseUrl: location.origin };
      export const worker = setupWorker(...createHandlers(options));
      const hr = createClient({ baseUrl: location.origin, apiKey: "demo_org1_full" });
      export const names = hr.listLeaveTypes({ PageSize: 2 }).then((page) => page.data.map((type) => type.name), (error) => (error instanceof HrApiError ? error.kind : "other"));
      // @ts-expect-error a page size is a number
      hr.listLeaveTypes({ PageSize: "2" });`);
    // Every file the program reads is checked (TypeScript's own libs aside), as tsc does with skipLibCheck off: no declaration may need Node's types.
    const { files, errors } = await typeErrors(consumer, BROWSER_PROJECT, () => true);
    expect(files, "the declaration files the browser project reads").toEqual(expect.arrayContaining(["node_modules/hr-service-mock/dist/mock/msw/index.d.ts", "node_modules/hr-service-contract/dist/src/client/index.d.ts"]));
    expect(files.filter((file) => file.includes("@types/node")), "Node's types in a browser project").toEqual([]);
    expect(errors, "type errors of the browser entries in a browser project").toBe("");
  });

  it("the Node entry needs @types/node, as the guide says: without it, startMock's declarations cannot find node:http", async () => {
    const consumer = path.join(projects.msw, "node-without-types.ts");
    fs.writeFileSync(consumer, `import { startMock } from "hr-service-mock";\nexport const started = startMock({ port: 0 });\n`);
    const { errors } = await typeErrors(consumer, { ...NODE_PROJECT, types: [], typeRoots: [] }, () => true);
    // TypeScript 7's words; TypeScript 5 says "Cannot find module 'node:http'" (the guide gives both).
    expect(errors).toMatch(/Cannot find name 'node:http'/);
    const guide = fs.readFileSync(path.join(repoRoot, "docs/guides/getting-started.md"), "utf8").replace(/\s+/g, " ");
    expect(guide, "getting-started.md says the Node entries need @types/node").toMatch(/`hr-service-mock`'s root .*need `@types\/node`/);
    expect(guide, "getting-started.md quotes the error tsc stops at").toContain("`Cannot find name 'node:http'`");
  });

  it("bundles for a browser with a bundler's defaults: the browser condition gives the prebuilt handlers", async () => {
    const entry = `import { setupWorker } from "msw/browser"; import { createHandlers } from "hr-service-mock/msw"; export const start = () => setupWorker(...createHandlers()).start();`;
    const result = await build({ stdin: { contents: entry, resolveDir: projects.msw, loader: "js" }, bundle: true, format: "esm", platform: "browser", write: false, logLevel: "silent", metafile: true });
    const fromMock = Object.keys(result.metafile.inputs).filter((file) => file.includes("node_modules/hr-service-mock/"));
    const files = fromMock.map((file) => file.slice(file.indexOf("hr-service-mock/")));
    expect(files, "the browser entry in a browser bundle").toContain("hr-service-mock/dist/browser/msw.js");
    expect(files.filter((file) => !file.startsWith("hr-service-mock/dist/browser/")), "files of hr-service-mock beside its browser build in a browser bundle").toEqual([]);
  });
});

it("the build leaves each package's bins executable", () => {
  for (const [name, target] of Object.entries(PACKAGES)) {
    for (const file of target.bins) expect(fs.statSync(path.join(target.dir, file)).mode & 0o111, `${name}: ${file} is not executable`).not.toBe(0);
  }
});
