// Both packages as users get them (scripts/lib/packed-install.ts: built, packed, installed from the
// tarballs into empty projects), made once per run for every file that needs them, with the run's
// docs site (docs-site.ts), built without type-checking the sources again (test/spec/typecheck.test.ts
// checks them; tsc emits the same files). A file that changes a project says so where it does.
import path from "node:path";
import { packAndInstall, type PackedPackage } from "../../scripts/lib/packed-install.js";
import type { PackageName } from "../../scripts/build-package.js";
import { builtDocsSite } from "./docs-site.js";
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
  const site = await builtDocsSite();
  const { folder, value } = await sharedThisRun("packed-install", async (into) => {
    const { tarballs, projects } = await packAndInstall(into, { app: ["contract", "mock"], light: ["contract"] }, undefined, { docsSite: site.dir, typeChecked: true });
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
