// npm run check:generated: regenerates into a temporary folder and fails, with a diff, when the
// committed files in generated/ differ (someone edited a spec without running npm run generate).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { generate } from "./generate.js";
import { repoRoot } from "./generate/bundle.js";

export async function findStaleFiles(): Promise<{ file: string; diff: string }[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hr-generated-"));
  try {
    const files = await generate(tmp);
    const stale: { file: string; diff: string }[] = [];
    for (const file of files) {
      const committed = path.join(repoRoot, "generated", file);
      const fresh = path.join(tmp, file);
      if (fs.existsSync(committed) && fs.readFileSync(committed, "utf8") === fs.readFileSync(fresh, "utf8")) continue;
      const diff = fs.existsSync(committed)
        ? spawnSync("diff", ["-u", committed, fresh], { encoding: "utf8" }).stdout
        : `generated/${file} is missing`;
      stale.push({ file: `generated/${file}`, diff });
    }
    return stale;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main() {
  const stale = await findStaleFiles();
  if (stale.length === 0) {
    console.log("check:generated: generated/ is fresh");
    return;
  }
  for (const { diff } of stale) console.error(diff.split("\n").slice(0, 80).join("\n"));
  console.error(`check:generated: stale: ${stale.map((s) => s.file).join(", ")}; run npm run generate and commit the result`);
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(`check:generated: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
