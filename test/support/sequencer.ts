// The order of the suite's files: vitest's own (on a machine that ran the suite before, failed
// files, then the longest), except that the image test starts first. On a fresh machine vitest
// knows no durations and would start it late; its first step (an mmdebstrap base, then the image)
// mostly waits on Debian's mirror and the disk, so started first it runs beside every other file
// on the second worker instead of after them. The compose test shares that build and waits for
// it, so it keeps its place, not to hold the second worker too.
import { BaseSequencer, type TestSpecification } from "vitest/node";

const FIRST = /[\\/]test[\\/]image[\\/]image\.test\.ts$/;

export default class ImageFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((file) => FIRST.test(file.moduleId)), ...sorted.filter((file) => !FIRST.test(file.moduleId))];
  }
}
