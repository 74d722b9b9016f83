// A process asking buildOnce for a folder (test/clone/build-once.test.ts): its build appends this
// pid to a log and ends once the file "release" appears beside the log (the test writes it when
// every process has said whether it builds or waits); it prints the folder it got.
import { appendFileSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildOnce } from "../../scripts/lib/build-once.mjs";

const [parent, key, log] = process.argv.slice(2);
const release = join(parent, "..", "release");
const folder = await buildOnce({
  parent,
  key,
  pollMs: 5,
  onBuild: () => process.stderr.write("building\n"),
  onWait: () => process.stderr.write("waiting\n"),
  build: async (into) => {
    appendFileSync(log, `${process.pid}\n`);
    writeFileSync(join(into, "half"), "");
    await new Promise((resolve) => {
      const look = () => (existsSync(release) ? resolve() : setTimeout(look, 5));
      look();
    });
    writeFileSync(join(into, "complete"), "");
  },
});
process.stdout.write(`${folder} ${readdirSync(folder).includes("complete") ? "complete" : "incomplete"}\n`);
