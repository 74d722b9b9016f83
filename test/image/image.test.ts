// The repository's Containerfile, built once per run on a base made with mmdebstrap (no image can be
// pulled here) and run for real with Podman, as the Kubernetes example runs it: its command line,
// port, probe paths and variables are read from examples/deploy/kubernetes/deployment.yaml
// (test/support/deployment-manifest.ts), its Redis password given as its Secret would give it, to a
// Redis reached by the name the manifest's HR_MOCK_STATE gives. A second container, in memory,
// shows that a variable moves the port. Both run with a read-only root filesystem and as the image
// says (no --user): the image must bring its non-root user itself.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, test } from "vitest";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { foundInLayers, mockImage, podman, runContainer, type MockImage, type RunningContainer } from "../support/container-image.js";
import { deploymentContainer } from "../support/deployment-manifest.js";

const planned = deploymentContainer();
const API = "/v1/leaverequest/list?PageSize=2";
const AUTH = { authorization: `Bearer ${DEMO_KEY.org1Full}` };
/** Where the Kubernetes example's Redis is (its HR_MOCK_STATE), which the test's Redis answers as. */
const redisUrl = new URL(planned.env.find((v) => v.name === "HR_MOCK_STATE")?.value ?? "");
const drainSeconds = Number(planned.env.find((v) => v.name === "HR_MOCK_DRAIN")?.value ?? 5);
/**
 * What the image tests' containers are started with besides their variables: Podman schedules a
 * HEALTHCHECK through systemd timers, which these hosts lack; `podman healthcheck run` runs it here.
 */
const RUN = ["--read-only", "--health-interval", "disable"];

let image: MockImage;
let network: string;
let redis: string | undefined;
let mock: RunningContainer;
const password = randomBytes(12).toString("hex");

beforeAll(async () => {
  image = await mockImage();
  network = `hr-mock-image-test-${randomBytes(4).toString("hex")}`;
  await podman(["network", "create", network]);
  redis = (
    await podman(["run", "-d", "--network", network, "--network-alias", redisUrl.hostname, image.base, "redis-server", "--port", redisUrl.port || "6379", "--requirepass", password, "--save", "", "--appendonly", "no", "--protected-mode", "no"])
  ).trim();
  // Each variable as the manifest gives it; the Secret's as a Secret would (the test's own password).
  const env = planned.env.flatMap((v) => ["-e", `${v.name}=${v.secret ? password : v.value}`]);
  mock = await runContainer(image.id, planned.port, [...RUN, "--network", network, ...env], planned.args);
});

afterAll(async () => {
  await mock?.remove();
  if (redis) await podman(["rm", "--force", "--time", "0", redis]).catch(() => undefined);
  if (network) await podman(["network", "rm", "--force", network]).catch(() => undefined);
});

// The two groups run side by side, each on containers of its own (the run's image is built once
// for both): the file took the sum of their waits on Podman and the drain. Within a group the tests
// keep their order (the last stops the mock), and each asserts with its own expect.
describe("the image, run as the Kubernetes example runs it", { concurrent: true }, () => {
  test.sequential("answers its probes on the manifest's port once it reached its Redis, and the API with a demo key", async ({ expect }) => {
    await mock.waitFor(planned.readiness, 200);
    expect((await mock.get(planned.liveness)).status, `GET ${planned.liveness}`).toBe(200);
    const answer = await mock.get(API, AUTH);
    expect(answer.status, `GET ${API} with a demo key: ${await answer.clone().text()}`).toBe(200);
    expect((await answer.json()).isSuccessful).toBe(true);
  });

  test.sequential("runs as the image's non-root user node, on a read-only root filesystem", async ({ expect }) => {
    const status = await podman(["exec", mock.id, "cat", "/proc/1/status"]);
    expect(/^Uid:\s+(\d+)/m.exec(status)?.[1], "the real uid of the container's PID 1").toBe("1000");
    expect((await podman(["exec", mock.id, "cat", "/proc/1/cmdline"])).split("\0")[0], "PID 1 is node itself (exec form, no shell)").toBe("node");
    expect((await podman(["inspect", "--format", "{{.HostConfig.ReadonlyRootfs}}", mock.id])).trim()).toBe("true");
    await expect(podman(["exec", mock.id, "touch", "/home/node/written"]), "a write outside the tmpfs mounts").rejects.toThrow(/Read-only file system/);
  });

  test.sequential("declares a health check on the liveness path, which passes", async ({ expect }) => {
    const declared = JSON.parse(await podman(["image", "inspect", "--format", "{{json .Config.Healthcheck}}", image.id]));
    expect(declared?.Test?.join(" "), "the image's HEALTHCHECK (built with --format docker)").toContain(planned.liveness);
    // podman healthcheck run exits 0 when the check passes.
    expect((await podman(["healthcheck", "run", mock.id])).trim()).toMatch(/^(healthy)?$/);
  });

  test.sequential("takes no more memory than the manifest requests", async ({ expect }) => {
    await mock.waitFor(planned.readiness, 200);
    for (let i = 0; i < 20; i++) await (await mock.get(`${API}&PageNumber=${i + 1}`, AUTH)).arrayBuffer();
    const peak = Number(/^VmHWM:\s+(\d+) kB/m.exec(await podman(["exec", mock.id, "cat", "/proc/1/status"]))?.[1]) * 1024;
    const requested = mebibytes(planned.container.resources.requests.memory);
    expect(peak, `peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB against the request of ${planned.container.resources.requests.memory}`).toBeLessThanOrEqual(requested);
    expect(peak, "the request is near what the mock takes, not a guess far above it").toBeGreaterThan(requested / 2);
  });

  test.sequential("on SIGTERM as PID 1: not ready at once, still serving through the drain, then exit 0", async ({ expect }) => {
    await mock.waitFor(planned.readiness, 200);
    const sent = performance.now();
    await podman(["kill", "--signal", "TERM", mock.id]);
    // The signal is handled on the process's next turn: readiness turns 503 within the drain, which
    // is counted from when podman kill returned (on a loaded machine it can take most of the drain).
    const delivered = performance.now();
    let ready = 200;
    while (ready === 200 && performance.now() - delivered < drainSeconds * 1000) ready = (await mock.get(planned.readiness)).status;
    expect(ready, `${planned.readiness} after SIGTERM, within the drain`).toBe(503);
    expect((await mock.get(API, AUTH)).status, "the API during the drain").toBe(200);
    const exit = (await podman(["wait", mock.id], { timeoutMs: (drainSeconds + 30) * 1000 })).trim();
    const seconds = (performance.now() - sent) / 1000;
    expect(exit, `exit status; last lines: ${await podman(["logs", "--tail", "3", mock.id])}`).toBe("0");
    // It drained (it did not stop at once); how long beyond the drain it took is no assertion: a
    // loaded machine may take longer, and exit 0 already says podman did not have to kill it.
    expect(seconds, "seconds from SIGTERM to exit: at least the drain").toBeGreaterThanOrEqual(drainSeconds - 0.5);
  });
});

describe("the image, run with its defaults", { concurrent: true }, () => {
  test.sequential("HR_MOCK_PORT moves the port it listens on, in every interface of the container", async ({ expect }) => {
    const port = planned.port + 7;
    const plain = await runContainer(image.id, port, [...RUN, "-e", `HR_MOCK_PORT=${port}`]);
    try {
      // The API answers 200 on the port the variable named (waitFor fails naming what never came).
      await plain.waitFor(API, 200, AUTH);
    } finally {
      await plain.remove();
    }
  });

  test.sequential("adds at most 60 MB to its base", async ({ expect }) => {
    const size = async (id: string) => Number((await podman(["image", "inspect", "--format", "{{.Size}}", id])).trim());
    const added = (await size(image.id)) - (await size(image.base));
    expect(added / 1e6, "MB the image adds above its base").toBeLessThanOrEqual(60);
  });

  test.sequential("holds the npm secrets it was built with in no layer of any stage", async ({ expect }) => {
    expect(image.secrets.map((s) => s.id), "the build had an npmrc to keep out (the user's, or the test's own)").toContain("npmrc");
    const needles = Object.fromEntries(image.secrets.map((s) => [s.id, fs.readFileSync(s.src)]));
    // The Containerfile itself is in the first stage (COPY . .): the search sees what the layers hold.
    const found = await foundInLayers(Object.values(image.stages), image.base, { ...needles, Containerfile: fs.readFileSync(path.join(repoRoot, "Containerfile")) });
    expect(found).toEqual({ ...Object.fromEntries(image.secrets.map((s) => [s.id, false])), Containerfile: true });
    const history = await podman(["history", "--no-trunc", "--format", "{{.CreatedBy}}", image.stages.pack]);
    for (const secret of image.secrets) expect(history, `the build's history names no file of the secret ${secret.id}`).not.toContain(secret.src);
  });
});

/** Bytes of a Kubernetes memory quantity (Mi, Gi). */
function mebibytes(quantity: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`a memory quantity in Mi or Gi, got ${quantity}`);
  return Number(match[1]) * (match[2] === "Gi" ? 2 ** 30 : 2 ** 20);
}
