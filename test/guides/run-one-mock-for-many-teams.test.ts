// "Run one mock for many teams" says what the mock does: its replicas' commands parse to one mock
// on one store, the load balancers' configurations send to exactly those replicas, and the bounds,
// the timeout and the 503 it quotes are the mock's own. (What replicas share is shown by
// test/state-redis/; the configurations' files are quoted verbatim, which documents.test.ts holds.)
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { mockLimits } from "../../generated/control-facts.js";
import { SERVE_HELP, parseServeArgs } from "../../mock/cli/commands/serve.js";
import { DEFAULT_PORT } from "../../mock/kernel/limits.js";
import { storeUnavailable } from "../../mock/kernel/store-unavailable.js";
import { StoreUnavailableError } from "../../mock/kernel/store-unavailable.js";
import { COMMAND_TIMEOUT_MS } from "../../mock/state/redis/connection.js";
import { TRIGGER_PATIENCE_MS } from "../../mock/state/redis/webhooks/service.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { routes } from "../../generated/routes.js";
import { parse } from "yaml";
import { commands, section, shLines, words } from "../readme/documents.js";

const GUIDE = "Run one mock for many teams";
const text = section(GUIDE).text;
const replicas = commands(section("The flag").text).filter((c) => c.startsWith("npx hr-mock serve"));
const file = (name: string) => fs.readFileSync(path.join(repoRoot, "examples", "load-balancer", name), "utf8");

describe("the replicas' commands", () => {
  const parsed = replicas.map((command) => parseServeArgs(words(command).slice(3)));

  test("two replicas, each on its own port", () => {
    expect(parsed.length).toBe(2);
    expect(new Set(parsed.map((p) => p !== "help" && p.port)).size).toBe(2);
  });

  test("one mock: the same Redis address and dataset flags", () => {
    const shared = parsed.map((p) => p !== "help" && { state: p.state, seed: p.seed, today: p.today, scale: p.scale });
    expect(shared[0]).toMatchObject({ state: "redis://127.0.0.1:6379" });
    expect(shared[1]).toEqual(shared[0]);
  });

  test.each([
    ["nginx.conf", /server 127\.0\.0\.1:(\d+)/g, /listen 127\.0\.0\.1:(\d+);/],
    ["haproxy.cfg", /server replica\d 127\.0\.0\.1:(\d+)/g, /bind 127\.0\.0\.1:(\d+)/],
  ])("%s sends to exactly those replicas, from the mock's usual port", (name, server, listen) => {
    const config = file(name);
    const ports = [...config.matchAll(server)].map((m) => Number(m[1]));
    expect(ports, `${name}'s servers`).toEqual(parsed.map((p) => p !== "help" && p.port));
    expect(Number(listen.exec(config)?.[1]), `${name} listens where clients expect the mock`).toBe(DEFAULT_PORT);
    expect(text, "the guide names the balancer's address").toContain(`http://127.0.0.1:${DEFAULT_PORT}`);
  });
});

test("the 503 it quotes is the mock's, and the timeout it states is the connection's", () => {
  const quoted = /`(Service unavailable: [^`]+)`/.exec(text)?.[1];
  expect(quoted, "the guide quotes the 503's message").toBeDefined();
  const message = String(storeUnavailable(new StoreUnavailableError("redis://…", "connection refused"))?.body);
  expect(JSON.parse(message).message).toBe(quoted);
  expect(text).toContain(`not answering within ${COMMAND_TIMEOUT_MS / 1000} s`);
  expect(text, "how long a trigger keeps trying while other replicas' changes land first").toContain(`keeps it behind for ${TRIGGER_PATIENCE_MS / 1000} s answers \`409\``);
});

test("the bounds it states are the control document's", () => {
  const bound = (n: number) => n.toLocaleString("en");
  for (const [what, value] of [
    ["journal", `last ${bound(mockLimits.journalPerWorld)} requests`],
    ["URL cut", `first ${bound(mockLimits.journalUrlBytes)} bytes`],
    ["delivery log", `keeps ${bound(mockLimits.deliveryLogPerOrganisation)} entries per organisation`],
    ["waiting in all", `${bound(mockLimits.maxWaiting)} deliveries wait per world`],
    ["waiting per endpoint", `${bound(mockLimits.maxWaitingPerEndpoint)} per endpoint`],
  ]) expect(text, what).toContain(value);
});

describe("settings from the environment", () => {
  const env = section("Settings from the environment").text;

  test("every variable it names is one serve --help lists", () => {
    const named = [...new Set([...env.matchAll(/\bHR_MOCK_[A-Z_]*[A-Z]\b/g)].map((m) => m[0]))].filter((name) => name !== "HR_MOCK_");
    expect(named.length, "variables named").toBeGreaterThan(5);
    for (const name of named) expect(SERVE_HELP, `${name} in serve --help`).toMatch(new RegExp(`\\b${name}\\b`));
  });

  test("its command, variables only, is the first replica of \"The flag\"", () => {
    const [line] = shLines(env);
    const assignments = Object.fromEntries(words(line).filter((w) => /^HR_MOCK_\w+=/.test(w)).map((w) => w.split("=", 2) as [string, string]));
    expect(line.endsWith("npx hr-mock serve"), line).toBe(true);
    // The same settings; only the name a state error would give its source differs (the variable, the flag).
    const settingsOf = (parsed: ReturnType<typeof parseServeArgs>) => (parsed === "help" ? { stateNamed: undefined } : parsed);
    const { stateNamed: fromVariables, ...byVariables } = settingsOf(parseServeArgs([], assignments));
    const { stateNamed: fromFlags, ...byFlags } = settingsOf(parseServeArgs(words(replicas[0]).slice(3)));
    expect(byVariables).toEqual(byFlags);
    expect([fromVariables, fromFlags]).toEqual(["HR_MOCK_STATE", "--state"]);
  });

  test("the line it quotes is serve's", () => {
    const quoted = /`(hr-mock serve: HR_MOCK_PORT [^`]+)`/.exec(env)?.[1];
    expect(quoted, "the guide quotes a variable's mistake").toBeDefined();
    expect(() => parseServeArgs([], { HR_MOCK_PORT: "x" })).toThrow(`${quoted!.replace(/^hr-mock serve: /, "")} (see hr-mock serve --help)`);
  });
});

test("the probes it names are the control document's operations that need no key", async () => {
  const probes = section("Probes: alive, and ready for traffic").text;
  const { default: control } = await import("../../generated/control-openapi.json", { with: { type: "json" } });
  const keyless = Object.entries(control.paths as Record<string, { get?: { security?: unknown[] } }>)
    .filter(([, item]) => Array.isArray(item.get?.security) && item.get.security.length === 0)
    .map(([path]) => path);
  const named = [...new Set([...probes.matchAll(/`GET (\/_mock\/\w+)`/g)].map((m) => m[1]))];
  expect(named.sort()).toEqual(keyless.filter((path) => path !== "/_mock/metrics").sort());
});

test("the drain's lines it shows are serve's, and its default is parseServeArgs'", async () => {
  const drain = section("Restarts that lose nothing: the drain").text;
  const { lifecycleLine } = await import("../../mock/cli/stop-signals.js");
  const shown = /```text\n([\s\S]*?)\n```/.exec(drain)?.[1].split("\n");
  const settings = parseServeArgs([]);
  if (settings === "help") throw new Error("parsed as --help");
  expect(shown).toEqual([
    lifecycleLine("SIGTERM", { step: "draining", periodMs: settings.drainMs }),
    lifecycleLine("SIGTERM", { step: "closing", inFlight: 3 }),
    lifecycleLine("SIGTERM", { step: "stopped" }),
  ]);
  expect(drain).toContain(`(\`HR_MOCK_DRAIN\`, ${settings.drainMs / 1000} by default)`);
});

test("the Prometheus example scrapes exactly the replicas, at the path the mock serves its metrics", () => {
  const config = parse(fs.readFileSync(path.join(repoRoot, "examples", "prometheus", "prometheus.yml"), "utf8"));
  const job = config.scrape_configs[0];
  expect(job.metrics_path, "the path of getMetrics").toBe(routes.find((route) => route.operationId === "getMetrics")?.path);
  expect(job.static_configs.flatMap((c: { targets: string[] }) => c.targets), "its targets").toEqual(replicas.map((command) => `127.0.0.1:${(parseServeArgs(words(command).slice(3)) as { port: number }).port}`));
});
