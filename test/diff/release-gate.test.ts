// The CI gate: the working tree's contract against the last release recorded in
// contract-releases/ (or the base named by $CONTRACT_BASE: a git ref, a folder or a tarball).
// It fails on a breaking change that contract-releases/acknowledged.json does not name, so a
// deliberate break is a reviewed decision. The same check by hand: `npm run diff`.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { main } from "../../mock/diff/cli.js";
import { compareVersions, listReleases, RELEASES_DIR } from "../../mock/diff/releases.js";

const root = path.resolve(import.meta.dirname, "../..");

test("the release record holds this version or an earlier one, each with both bundles and a date", async () => {
  const releases = await listReleases(path.join(root, RELEASES_DIR));
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  expect(releases.length, `no release recorded in ${RELEASES_DIR}/`).toBeGreaterThan(0);
  expect(compareVersions(releases.at(-1)!.version, version), `the last recorded release is newer than package.json's ${version}`).toBeLessThanOrEqual(0);
  for (const release of releases) {
    for (const file of ["openapi.json", "asyncapi.json"]) expect(fs.existsSync(path.join(release.dir, file)), `${release.version}: ${file}`).toBe(true);
    expect(release.date, `${release.version}: release.json's date`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }
});

test("no breaking change since the last release that is not acknowledged", async () => {
  let report = "";
  let errors = "";
  const code = await main([], { cwd: root, env: process.env, stdout: (text) => (report += text), stderr: (text) => (errors += text) });
  expect(errors, "npm run diff could not compare").toBe("");
  expect(code, `npm run diff exit code; its report:\n${report}`).toBe(0);
});
