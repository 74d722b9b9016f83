// The image tests' base. No image can be pulled here, so it is made from Debian's packages with
// mmdebstrap: minbase bookworm, libstdc++6, the machine's own Node 20 and npm copied in, a user node
// with uid 1000 as the official node images have; Redis and nginx too, so that the compose test needs
// no second base. It is named by a hash of its recipe and kept by Podman across runs; the podman
// image is the only record of it. One build at a time on the machine (a lock in the temporary
// folder): .ci/run starts it while npm ci runs (`node test/support/container-base.mjs`), and a test
// that asks meanwhile waits for that build instead of making a second.
// Plain JavaScript: .ci/run runs it before npm ci has installed anything. Types: container-base.d.mts.
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { buildOnce } from "../../scripts/lib/build-once.mjs";

const exec = promisify(execFile);

/** What a build or an mmdebstrap run gets at most on a loaded machine. */
export const BUILD_TIMEOUT_MS = 600_000;

/** mmdebstrap's arguments for the base (the recipe: its text names the base). */
function baseRecipe() {
  const nodeVersion = spawnSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).stdout.trim();
  const npmVersion = JSON.parse(fs.readFileSync("/usr/lib/node_modules/npm/package.json", "utf8")).version;
  return [
    "--quiet",
    "--variant=minbase",
    "--include=libstdc++6,redis-server,nginx",
    // dpkg without fsync (mmdebstrap's own hook, which it removes again): the base is made in a
    // temporary folder and packed into a tar, so a crash loses nothing worth a sync. 51.5 s without,
    // 37.0 s with, one after the other here.
    "--hook-dir=/usr/share/mmdebstrap/hooks/eatmydata",
    // The machine's Node and npm (Debian's nodejs in bookworm is 18); their versions are part of the recipe.
    `--customize-hook=: node ${nodeVersion} npm ${npmVersion}`,
    "--customize-hook=copy-in /usr/bin/node /usr/bin",
    '--customize-hook=mkdir -p "$1/usr/lib/node_modules"',
    "--customize-hook=copy-in /usr/lib/node_modules/npm /usr/lib/node_modules",
    '--customize-hook=ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/bin/npm"',
    '--customize-hook=chroot "$1" groupadd --gid 1000 node',
    '--customize-hook=chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
    '--customize-hook=rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*',
    "bookworm",
  ];
}

const imageExists = (tag) => spawnSync("podman", ["image", "exists", tag]).status === 0;

/** The base's tag (made unless this machine holds it): `localhost/hr-mock-test-base:<hash of its recipe>`. */
export async function containerBase() {
  const recipe = baseRecipe();
  const hash = createHash("sha256").update(recipe.join("\n")).digest("hex").slice(0, 16);
  const tag = `localhost/hr-mock-test-base:${hash}`;
  if (imageExists(tag)) return tag;
  const made = await buildOnce({
    parent: path.join(os.tmpdir(), "hr-mock-test-base"),
    key: hash,
    pollMs: 200,
    build: async (into) => {
      // Made by the build this one waited for.
      if (imageExists(tag)) return;
      const tar = path.join(into, "base.tar");
      try {
        await exec("mmdebstrap", [...recipe, tar], { timeout: BUILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
      } catch (error) {
        throw new Error(`mmdebstrap could not make the containers' base (${error.stderr?.trim().split("\n").slice(-3).join(" | ") ?? error})`);
      }
      try {
        await exec("podman", ["import", "--quiet", tar, tag], { timeout: BUILD_TIMEOUT_MS });
      } catch (error) {
        throw new Error(`podman import of the containers' base failed: ${error.stderr?.trim().split("\n").slice(-3).join(" | ") ?? error}`);
      }
      fs.rmSync(tar);
    },
  });
  // The image is the record; the lock's folder only told waiters that the build ended.
  fs.rmSync(made, { recursive: true, force: true });
  return tag;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  containerBase().then(
    (tag) => console.log(`container base ${tag} ready (${((performance.now() - started) / 1000).toFixed(1)} s)`),
    (error) => {
      console.error(`container base: ${error.message}`);
      process.exitCode = 1;
    },
  );
}
