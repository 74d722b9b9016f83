// The order of the suite's files: vitest's own (on a machine that ran the suite before, failed
// files, then the longest), and the run's image (test/support/container-build.ts) started at once
// in this process when a file that uses it runs, so that it builds beside the other files without
// holding a worker. Where it must build from nothing (no image of an earlier run on this machine:
// its base, its npm ci, the packages' build, minutes), the files that use it go last, to find it
// made; where an earlier run built it (seconds on Podman's layer cache), the image test goes first,
// its usual place as one of the longest files, and the compose test keeps its own.
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { imageBuiltBefore, mockImageIn } from "./container-build.js";

const USES_IMAGE = /[\\/]test[\\/]image[\\/](image|compose)\.test\.ts$/;
const IMAGE_TEST = /[\\/]test[\\/]image[\\/]image\.test\.ts$/;

export default class ImageSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const users = sorted.filter((file) => USES_IMAGE.test(file.moduleId));
    if (users.length === 0) return sorted;
    const warm = imageBuiltBefore();
    // A build that fails here is made again by the first file that asks, which reports it.
    mockImageIn(users[0].project.getProvidedContext().runDir).catch(() => undefined);
    if (warm) return [...sorted.filter((file) => IMAGE_TEST.test(file.moduleId)), ...sorted.filter((file) => !IMAGE_TEST.test(file.moduleId))];
    return [...sorted.filter((file) => !USES_IMAGE.test(file.moduleId)), ...users];
  }
}
