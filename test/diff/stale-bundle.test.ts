// `npm run diff` in a clone compares generated/'s bundles, so it must never compare bundles older
// than the documents: an edit under openapi/ or asyncapi/ without `npm run generate` is refused
// (exit 2) with one line naming the stale bundle and the changed file. Each case plants an edit in
// a temporary copy of the repository's documents and bundles.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../mock/diff/cli.js";
import { loadOwnContract } from "../../mock/diff/load.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

let copy: string;

beforeEach(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), "hr-diff-stale-"));
  for (const folder of ["openapi", "asyncapi", "generated", "contract-releases"]) fs.cpSync(path.join(repoRoot, folder), path.join(copy, folder), { recursive: true });
});
afterEach(() => fs.rmSync(copy, { recursive: true, force: true }));

const edit = (file: string, change: (text: string) => string) => {
  const full = path.join(copy, file);
  const before = fs.readFileSync(full, "utf8");
  const after = change(before);
  expect(after, `the planted edit changes ${file}`).not.toBe(before);
  fs.writeFileSync(full, after);
};

/** The diff as `npm run diff` runs it with no argument, in the copy. */
async function diff(): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main([], { cwd: copy, env: {}, ownGenerated: path.join(copy, "generated"), stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe("npm run diff after an edit without npm run generate", () => {
  const cases: Array<[string, { given: () => void; want: RegExp }]> = [
    [
      "a parameter made required in openapi/paths/",
      {
        given: () =>
          edit("openapi/paths/v1_leaverequest_list.yaml", (text) =>
            text.replace(
              "    - $ref: ../components/parameters/OrderBy.yaml\n",
              "    - $ref: ../components/parameters/OrderBy.yaml\n    - name: Region\n      in: query\n      required: true\n      description: The region.\n      example: north\n      schema: { type: string, maxLength: 20 }\n",
            ),
          ),
        want: /^hr-mock diff: generated\/openapi\.json is older than the documents: openapi\/paths\/v1_leaverequest_list\.yaml changed since npm run generate wrote it; run npm run generate, then the diff again\n$/,
      },
    ],
    [
      "an event's payload schema edited",
      {
        given: () => edit("asyncapi/schemas/LeaveApprovedData.yaml", (text) => `${text}\n# edited\n`),
        want: /generated\/asyncapi\.json.* older than the documents: asyncapi\/schemas\/LeaveApprovedData\.yaml changed/,
      },
    ],
    [
      "a component file removed",
      {
        given: () => fs.rmSync(path.join(copy, "openapi/components/parameters/OrderBy.yaml")),
        want: /generated\/openapi\.json is older than the documents: openapi\/components\/parameters\/OrderBy\.yaml \(removed\) changed/,
      },
    ],
    [
      "no record of the bundles' sources",
      {
        given: () => fs.rmSync(path.join(copy, "generated/bundle-sources.json")),
        want: /generated\/openapi\.json and generated\/asyncapi\.json are older than the documents: generated\/bundle-sources\.json \(missing or unreadable\)/,
      },
    ],
  ];

  it.each(cases)("%s: refused, exit 2, one line naming the bundle and the file", async (_name, { given, want }) => {
    given();
    const { code, stdout, stderr } = await diff();
    expect({ code, stdout }, stderr).toEqual({ code: 2, stdout: "" });
    expect(stderr, "one line").toMatch(/^[^\n]*\n$/);
    expect(stderr).toMatch(want);
  });
});

describe("bundles that are what the documents give", () => {
  it("load as the working tree's contract", async () => {
    const contract = await loadOwnContract(path.join(copy, "generated"));
    expect(contract.label).toBe("working tree");
    expect(contract.openapi.paths["/v1/leaverequest/list"], "the read API's bundle").toBeDefined();
  });

  it("once installed (dist/generated/, no documents beside them), load without the check", async () => {
    const installed = path.join(copy, "dist", "generated");
    fs.mkdirSync(installed, { recursive: true });
    for (const name of ["openapi.json", "asyncapi.json"]) fs.copyFileSync(path.join(copy, "generated", name), path.join(installed, name));
    expect((await loadOwnContract(installed)).label).toBe("this package (installed)");
  });
});
