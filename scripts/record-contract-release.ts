// npm run diff's release record: `npm run release:record [-- --date YYYY-MM-DD]`
// copies the bundled documents of this version (package.json's version) into
// contract-releases/<version>/ with release.json, the base the CI gate and the changelog page
// compare with. A version is recorded once: recording it again with other documents is refused.
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { RELEASES_DIR } from "../mock/diff/releases.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DOCUMENTS = ["openapi.json", "asyncapi.json"];

export async function recordRelease({ root = repoRoot, date = new Date().toISOString().slice(0, 10) } = {}): Promise<string> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`--date must be YYYY-MM-DD, not ${date}`);
  const { version } = JSON.parse(await fs.readFile(path.join(root, "package.json"), "utf8")) as { version: string };
  const dir = path.join(root, RELEASES_DIR, version);
  const texts = await Promise.all(DOCUMENTS.map((name) => fs.readFile(path.join(root, "generated", name), "utf8")));
  const existing = await Promise.all(DOCUMENTS.map((name) => fs.readFile(path.join(dir, name), "utf8").catch(() => undefined)));
  if (existing.some((text) => text !== undefined)) {
    if (existing.every((text, index) => text === texts[index])) return `${path.relative(root, dir)}/ already records this contract`;
    throw new Error(`${path.relative(root, dir)}/ already records another contract for ${version}: bump the version first`);
  }
  await fs.mkdir(dir, { recursive: true });
  await Promise.all(DOCUMENTS.map((name, index) => fs.writeFile(path.join(dir, name), texts[index])));
  await fs.writeFile(path.join(dir, "release.json"), `${JSON.stringify({ version, date }, null, 2)}\n`);
  return `recorded ${path.relative(root, dir)}/ (${date})`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({ options: { date: { type: "string" } } });
    console.log(await recordRelease({ date: values.date }));
  } catch (error) {
    console.error(`record-contract-release: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
