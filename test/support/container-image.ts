// The image tests' Podman: the run's image (built once per run, container-build.ts) and base
// (container-base.mjs), what its layers hold, and containers run from it on free loopback ports.
// Each helper here is container-build.ts's, for the run of the file that calls it.
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { freePort } from "../../scripts/lib/free-port.js";
import { mockImageIn, podmanEnvIn, podmanIn, type MockImage } from "./container-build.js";

export { CONTAINERS_CONF_TEXT, type MockImage } from "./container-build.js";

/** The environment of the tests' podman and podman-compose invocations. */
export const podmanEnv = (): NodeJS.ProcessEnv => podmanEnvIn(inject("runDir"));

/** `podman ARGS` with the tests' settings; its stdout, or an Error naming the command and its last lines. */
export const podman = (args: string[], options: { timeoutMs?: number } = {}): Promise<string> => podmanIn(inject("runDir"), args, options);

/** The mock's image, built once per run from the repository (every stage, so the secrets test can look into each). */
export const mockImage = (): Promise<MockImage> => mockImageIn(inject("runDir"));

/** The folders holding the layers of `image` as Podman's overlay storage keeps them (each layer's files as written). */
async function layerFolders(image: string): Promise<string[]> {
  const [upper, lower] = (await podman(["image", "inspect", "--format", "{{.GraphDriver.Data.UpperDir}}\n{{.GraphDriver.Data.LowerDir}}", image])).trim().split("\n");
  return [upper, ...(lower ?? "").split(":")].filter((dir) => dir && dir !== "<no value>");
}

/**
 * Which of `needles` (by name: a file's whole content) lie in a file of a layer of `images` that
 * `base` does not have, each layer read as the storage holds it (a file written by a step and removed
 * by a later one would still be found).
 */
export async function foundInLayers(images: string[], base: string, needles: Record<string, Buffer>): Promise<Record<string, boolean>> {
  const baseLayers = new Set(await layerFolders(base));
  const folders = new Set((await Promise.all(images.map(layerFolders))).flat().filter((dir) => !baseLayers.has(dir)));
  const shortest = Math.min(...Object.values(needles).map((needle) => needle.length));
  const found: Record<string, boolean> = Object.fromEntries(Object.keys(needles).map((name) => [name, false]));
  // Synchronous reads: tens of thousands of small files (node_modules), far quicker than one promise each.
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.isFile()) {
        const bytes = fs.readFileSync(file);
        if (bytes.length < shortest) continue;
        for (const [name, needle] of Object.entries(needles)) if (!found[name] && bytes.includes(needle)) found[name] = true;
      }
    }
  };
  for (const folder of folders) visit(folder);
  return found;
}

export interface RunningContainer {
  id: string;
  /** GET on the host's published port. */
  get(pathAndQuery: string, headers?: Record<string, string>): Promise<Response>;
  /** Waits until GET `pathAndQuery` answers `status`; the milliseconds it took from the start of the run. */
  waitFor(pathAndQuery: string, status: number, headers?: Record<string, string>): Promise<number>;
  remove(): Promise<void>;
}

/** What a container gets at most to answer, on a loaded machine. */
const START_TIMEOUT_MS = 60_000;

/**
 * `podman run -d` of `image` with `runArgs` (options), its container port published on a free
 * loopback port, `command` after the image; removed when the run ends at the latest.
 */
export async function runContainer(image: string, containerPort: number, runArgs: string[], command: string[] = []): Promise<RunningContainer> {
  const hostPort = await freePort();
  const started = performance.now();
  const id = (await podman(["run", "-d", "-p", `127.0.0.1:${hostPort}:${containerPort}`, ...runArgs, image, ...command])).trim();
  const base = `http://127.0.0.1:${hostPort}`;
  const get = (pathAndQuery: string, headers: Record<string, string> = {}) => fetch(`${base}${pathAndQuery}`, { headers, signal: AbortSignal.timeout(10_000) });
  return {
    id,
    get,
    async waitFor(pathAndQuery, status, headers) {
      let last = "no answer";
      while (performance.now() - started < START_TIMEOUT_MS) {
        try {
          const response = await get(pathAndQuery, headers);
          await response.arrayBuffer();
          if (response.status === status) return performance.now() - started;
          last = `HTTP ${response.status}`;
        } catch (error) {
          last = String((error as Error).cause ?? error);
        }
        const state = (await podman(["inspect", "--format", "{{.State.Status}}", id])).trim();
        if (state !== "running") throw new Error(`the container stopped (${state}) before ${pathAndQuery} answered ${status}: ${(await podman(["logs", "--tail", "5", id]).catch(() => "")).trim()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${pathAndQuery} did not answer ${status} within ${START_TIMEOUT_MS} ms (last: ${last})`);
    },
    remove: async () => void (await podman(["rm", "--force", "--time", "0", id]).catch(() => undefined)),
  };
}
