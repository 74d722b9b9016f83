// examples/deploy/compose.yaml started with Debian's podman-compose as a user starts it: Redis with
// its append-only file, two replicas of the run's image (test/support/container-build.ts), nginx
// with the repository's example configuration; answered through nginx. The images compose would
// pull are named by the file's own variables (the tests' base holds redis-server and nginx).
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import { freePort } from "../../scripts/lib/free-port.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { mockImage, podman, podmanEnv } from "../support/container-image.js";
import { deploymentContainer } from "../support/deployment-manifest.js";

const exec = promisify(execFile);
const DEPLOY = path.join(repoRoot, "examples", "deploy");
const COMPOSE = path.join(DEPLOY, "compose.yaml");
const planned = deploymentContainer();
/** What the replicas and nginx get at most to answer through nginx, on a loaded machine. */
const UP_TIMEOUT_MS = 90_000;

const project = `hrmocktest${randomBytes(4).toString("hex")}`;
let port: number;
let env: NodeJS.ProcessEnv;
let up = false;

/** podman-compose with the test's project name and images. */
async function compose(...args: string[]): Promise<string> {
  try {
    const { stdout } = await exec("podman-compose", ["-p", project, "-f", COMPOSE, ...args], { env, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number };
    throw new Error(`podman-compose ${args.join(" ")} failed (${e.code}): ${`${e.stdout ?? ""}\n${e.stderr ?? ""}`.trim().split("\n").slice(-6).join(" | ")}`);
  }
}

beforeAll(async () => {
  const image = await mockImage();
  port = await freePort();
  env = { ...podmanEnv(), HR_MOCK_IMAGE: image.id, REDIS_IMAGE: image.base, NGINX_IMAGE: image.base, HR_MOCK_PUBLISHED_PORT: String(port) };
  up = true;
  await compose("up", "-d", "--no-build");
});

afterAll(async () => {
  if (!up) return;
  await compose("down", "-v", "-t", "0").catch(() => undefined);
  // podman-compose 1.0.3 leaves the project's network.
  await podman(["network", "rm", "--force", `${project}_default`]).catch(() => undefined);
});

/** GET through nginx until it answers `status`, within UP_TIMEOUT_MS. */
async function through(pathAndQuery: string, status: number, headers: Record<string, string> = {}): Promise<Response> {
  const deadline = performance.now() + UP_TIMEOUT_MS;
  let last = "no answer";
  while (performance.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}${pathAndQuery}`, { headers, signal: AbortSignal.timeout(10_000) });
      if (response.status === status) return response;
      last = `HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`;
    } catch (error) {
      last = String((error as Error).cause ?? error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`GET ${pathAndQuery} through nginx did not answer ${status} within ${UP_TIMEOUT_MS} ms (last: ${last}); containers: ${await podman(["ps", "-a", "--filter", `label=io.podman.compose.project=${project}`, "--format", "{{.Names}} {{.Status}}"]).catch(() => "?")}`);
}

describe("examples/deploy/compose.yaml with podman-compose", () => {
  test("answers through nginx from two replicas sharing one Redis with its append-only file", async () => {
    const answer = await through("/v1/leaverequest/list?PageSize=2", 200, { authorization: `Bearer ${DEMO_KEY.org1Full}` });
    expect((await answer.json()).isSuccessful).toBe(true);
    await through(planned.readiness, 200);
    // Both replicas answer, each on the shared store; Redis keeps its append-only file.
    for (const replica of ["mock-1", "mock-2"]) {
      const ready = await podman(["exec", `${project}_${replica}_1`, "node", "-e", `fetch("http://127.0.0.1:${planned.port}${planned.readiness}").then(async (r) => console.log(r.status, await r.text()))`]);
      expect(ready, `${replica}'s readiness inside its container`).toMatch(/^200 /);
    }
    const config = await podman(["exec", `${project}_redis_1`, "redis-cli", "config", "get", "appendonly"]);
    expect(config.split("\n").map((l) => l.trim())).toContain("yes");
  });

  test("its nginx.conf is the repository's nginx example with the replicas' names for addresses", () => {
    const body = (file: string) =>
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => !/^\s*(#|$)/.test(line))
        .join("\n");
    const example = body(path.join(repoRoot, "examples", "load-balancer", "nginx.conf"));
    const addresses = [...example.matchAll(/server 127\.0\.0\.1:(\d+)/g)].map((m) => m[1]);
    expect(addresses, "the example's two replicas").toHaveLength(2);
    const forCompose = addresses.reduce((text, p, i) => text.replace(`server 127.0.0.1:${p}`, `server mock-${i + 1}:${planned.port}`), example).replace(/listen 127\.0\.0\.1:(\d+);/, "listen $1;");
    expect(body(path.join(DEPLOY, "nginx.conf"))).toBe(forCompose);
  });
});
