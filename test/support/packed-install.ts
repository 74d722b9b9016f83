// Both packages as users get them (scripts/lib/packed-install.ts: built, packed, installed from the
// tarballs into empty projects), made once per run for every file that needs them, with the run's
// docs site (docs-site.ts) and the Node bundle of the development bundle hr-mock runs (hr-mock.ts: the
// same files a build bundles), built without type-checking the sources again (test/spec/typecheck.test.ts
// checks them; tsc emits the same files). A file that changes a project says so where it does.
import fs from "node:fs";
import path from "node:path";
import { packAndInstall, type PackedPackage } from "../../scripts/lib/packed-install.js";
import type { PackageName } from "../../scripts/build-package.js";
import { builtDocsSite } from "./docs-site.js";
import { devBundle } from "./hr-mock.js";
import { sharedThisRun } from "./run-once.js";

export interface InstalledPackages {
  /** The folder holding the tarballs and the projects. */
  work: string;
  tarballs: Record<PackageName, PackedPackage>;
  /** hr-service-contract and hr-service-mock together (a frontend or integration team, CI against the mock). */
  app: string;
  /** hr-service-contract alone (a webhook receiver, a frontend, a CI job checking a deployment). */
  light: string;
}

export async function installedPackages(): Promise<InstalledPackages> {
  const [site, nodeBundle] = await Promise.all([builtDocsSite(), devBundle()]);
  const { folder, value } = await sharedThisRun("packed-install", async (into) => {
    const { tarballs, projects } = await packAndInstall(into, { app: ["contract", "mock"], light: ["contract"] }, undefined, { docsSite: site.dir, nodeBundle, typeChecked: true });
    // Paths relative to the folder, which is moved into place once complete.
    const relative = (file: string) => path.relative(into, file);
    return {
      tarballs: { contract: { ...tarballs.contract, file: relative(tarballs.contract.file) }, mock: { ...tarballs.mock, file: relative(tarballs.mock.file) } },
      app: relative(projects.app),
      light: relative(projects.light),
    };
  });
  const absolute = (file: string) => path.join(folder, file);
  return {
    work: folder,
    tarballs: { contract: { ...value.tarballs.contract, file: absolute(value.tarballs.contract.file) }, mock: { ...value.tarballs.mock, file: absolute(value.tarballs.mock.file) } },
    app: absolute(value.app),
    light: absolute(value.light),
  };
}

interface LockedPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * The packages npm installed into `project` (its own record of them, node_modules/.package-lock.json,
 * by path) that none of `roots` (package names) needs, directly or through others: a dependency is
 * found where Node finds it, in the nearest node_modules above its dependent.
 */
export function installedBeyond(project: string, roots: string[]): string[] {
  const installed = (JSON.parse(fs.readFileSync(path.join(project, "node_modules", ".package-lock.json"), "utf8")) as { packages: Record<string, LockedPackage> }).packages;
  const resolve = (from: string, name: string): string | undefined => {
    for (let at = from; ; at = at.slice(0, Math.max(0, at.lastIndexOf("/node_modules/")))) {
      const candidate = `${at ? `${at}/` : ""}node_modules/${name}`;
      if (installed[candidate]) return candidate;
      if (!at) return undefined;
    }
  };
  const needed = new Set<string>();
  const visit = (location: string | undefined) => {
    if (!location || needed.has(location)) return;
    needed.add(location);
    const { dependencies, optionalDependencies, peerDependencies } = installed[location];
    for (const name of Object.keys({ ...dependencies, ...optionalDependencies, ...peerDependencies })) visit(resolve(location, name));
  };
  for (const root of roots) visit(resolve("", root));
  return Object.keys(installed).filter((location) => !needed.has(location));
}
