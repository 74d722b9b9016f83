// Both OpenAPI documents are written the same way (issue 21 item 4): a root index whose every path is
// one $ref to paths/<the path, "/" as "_">.yaml, one file per component under
// components/<type>/<Name>.yaml that the bundle names <Name>, and no file that nothing refers to
// (the bundler would leave it out without a word).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { loadJson, repoRoot } from "../../scripts/lib/spec-document.js";

/** What is wrong with the layout of the split document whose root is `root`, given its bundle. */
function layoutProblems(root: string, bundled: any): string[] {
  const folder = path.dirname(root);
  const problems: string[] = [];
  const index = YAML.parse(fs.readFileSync(root, "utf8"));
  for (const [name, item] of Object.entries<any>(index.paths ?? {})) {
    const want = `paths/${name.replace(/^\//, "").replaceAll("/", "_")}.yaml`;
    if (Object.keys(item).length !== 1 || item.$ref !== want) problems.push(`the root's path ${name} is not one $ref to ${want}`);
  }
  const reached = new Set<string>([root]);
  const visit = (file: string) => {
    const refs: string[] = [];
    YAML.visit(YAML.parseDocument(fs.readFileSync(file, "utf8")), {
      Pair: (_, pair) => {
        if (YAML.isScalar(pair.key) && pair.key.value === "$ref" && YAML.isScalar(pair.value)) refs.push(String(pair.value.value));
      },
    });
    for (const ref of refs) {
      if (ref.startsWith("#")) continue;
      const target = path.resolve(path.dirname(file), ref.split("#")[0]);
      if (!target.startsWith(folder + path.sep) || reached.has(target)) continue;
      reached.add(target);
      visit(target);
    }
  };
  visit(root);
  for (const file of fs.readdirSync(folder, { recursive: true, encoding: "utf8" }).map((f) => path.join(folder, f))) {
    if (!file.endsWith(".yaml")) continue;
    const relative = path.relative(folder, file);
    if (!reached.has(file)) problems.push(`${relative}: no $ref of the document reaches it`);
    const component = relative.match(/^components\/([^/]+)\/([^/]+)\.yaml$/);
    if (component && bundled.components?.[component[1]]?.[component[2]] === undefined) problems.push(`${relative}: the bundle has no components.${component[1]}.${component[2]}`);
  }
  return problems;
}

const DOCUMENTS: Array<[string, { given: { root: string; bundle: string } }]> = [
  ["the read API (openapi/)", { given: { root: "openapi/openapi.yaml", bundle: "generated/openapi.json" } }],
  ["the control API (mock/control/openapi/)", { given: { root: "mock/control/openapi/openapi.yaml", bundle: "generated/control-openapi.json" } }],
];

describe("the split OpenAPI documents", () => {
  it.each(DOCUMENTS)("%s: a root index, a file per path and per component named after it, none left over", (_name, { given }) => {
    expect(layoutProblems(path.join(repoRoot, given.root), loadJson(given.bundle))).toEqual([]);
  });

  it("names a misnamed path file, a left-over file and a component file the bundle names otherwise", () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "layout-planted-"));
    try {
      fs.cpSync(path.join(repoRoot, "mock/control/openapi"), copy, { recursive: true });
      const root = path.join(copy, "openapi.yaml");
      fs.renameSync(path.join(copy, "paths/_mock_data.yaml"), path.join(copy, "paths/data.yaml"));
      fs.writeFileSync(root, fs.readFileSync(root, "utf8").replace("$ref: paths/_mock_data.yaml", "$ref: paths/data.yaml"));
      fs.writeFileSync(path.join(copy, "components/schemas/Unused.yaml"), "type: string\n");
      expect(layoutProblems(root, loadJson("generated/control-openapi.json"))).toEqual([
        "the root's path /_mock/data is not one $ref to paths/_mock_data.yaml",
        "components/schemas/Unused.yaml: no $ref of the document reaches it",
        "components/schemas/Unused.yaml: the bundle has no components.schemas.Unused",
      ]);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
