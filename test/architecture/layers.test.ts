// The house's shape, held: the mock's folders are layers that import only downward, nothing in
// mock/, src/ or scripts/ imports round a circle (type imports count), the light package never
// reaches into the mock, and no source file grows past 400 lines. The layers are drawn in
// docs/guides/how-the-mock-is-built.md.
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { importCircles, readGraph } from "./imports.js";

/**
 * The mock's layers, lowest first: a file may import from its own layer and the ones before it.
 * Folders of one row are beside each other and may not import each other.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["mock/kernel"],
  ["mock/data", "mock/keys", "mock/diff"],
  ["mock/webhooks", "mock/scenarios"],
  ["mock/worlds"],
  ["mock/pact"],
  ["mock/operations", "mock/state"],
  ["mock/pipeline"],
  ["mock/edges"],
  ["mock/app"],
  ["mock/cli"],
  // The package's entries: mock/index.ts and mock/msw/index.ts re-export, mock/vitest and mock/playwright register the matcher (mock/app/journal-matcher.ts), mock/cli.ts runs the command line.
  ["mock/index.ts", "mock/msw", "mock/vitest", "mock/playwright", "mock/cli.ts"],
];

const graph = readGraph(repoRoot, ["mock", "src", "scripts"]);

function placeOf(file: string): { row: number; folder: string } | undefined {
  for (const [row, folders] of LAYERS.entries()) {
    const folder = folders.find((f) => file === f || file.startsWith(`${f}/`));
    if (folder) return { row, folder };
  }
  return undefined;
}

describe("the mock's layers", () => {
  it("place every file of mock/ in a layer", () => {
    const unplaced = [...graph.keys()].filter((file) => file.startsWith("mock/") && !placeOf(file));
    expect(unplaced, "files of mock/ in no layer: add their folder to LAYERS (and to the architecture page)").toEqual([]);
  });

  it("import only from their own folder, or from a lower layer", () => {
    const upward: string[] = [];
    for (const { file, imports } of graph.values()) {
      const from = placeOf(file);
      if (!from) continue;
      for (const target of imports) {
        const to = placeOf(target);
        if (!to || to.folder === from.folder) continue;
        if (to.row >= from.row) upward.push(`${file} -> ${target} (${to.row === from.row ? "a folder beside it" : "a higher layer"})`);
      }
    }
    expect(upward, "imports against the layers' direction").toEqual([]);
  });
});

/**
 * What the rest of the mock may import from mock/state/: the seam (index.ts, and the interface,
 * backend.ts), the one opener (open.ts, which picks the backend from --state) and what --state may
 * name (address.ts, a pure rule the settings read). A backend module (memory.ts, directory.ts,
 * redis/…) imported elsewhere would be a second place that chooses one.
 */
const STATE_SEAM = ["mock/state/index.ts", "mock/state/backend.ts", "mock/state/open.ts", "mock/state/address.ts"];

describe("the state seam", () => {
  it("is the only way into mock/state/: no file of the mock outside it imports a backend's module", () => {
    const direct = [...graph.values()]
      .filter((f) => f.file.startsWith("mock/") && !f.file.startsWith("mock/state/"))
      .flatMap((f) => f.imports.filter((t) => t.startsWith("mock/state/") && !STATE_SEAM.includes(t)).map((t) => `${f.file} -> ${t}`));
    expect(direct, "imports of mock/state/ around its seam: open the state with openBackend, read what it reports through index.ts").toEqual([]);
  });
});

describe("the whole source tree", () => {
  it("has no import circle in mock/, src/ or scripts/, type imports included", () => {
    expect(importCircles(graph).map((circle) => circle.join(" <-> ")), "files that import each other round a circle").toEqual([]);
  });

  it("keeps the light package (src/) free of the mock", () => {
    const reaching = [...graph.values()].filter((f) => f.file.startsWith("src/")).flatMap((f) => f.imports.filter((t) => t.startsWith("mock/")).map((t) => `${f.file} -> ${t}`));
    expect(reaching, "src/ is hr-service-contract, which does not ship the mock").toEqual([]);
  });

  it("has no source file over 400 lines", () => {
    const long = [...graph.values()].filter((f) => f.lines > 400).map((f) => `${f.file} (${f.lines} lines)`);
    expect(long, "split these by what they hold").toEqual([]);
  });
});
