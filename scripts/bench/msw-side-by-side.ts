// Our MSW handlers beside msw-auto-mock's and @mswjs/source's (scripts/bench/msw-peers.ts), in one
// run (npm run bench, or alone: npm run bench -- --only msw): each page bundled with the same esbuild
// settings (scripts/lib/browser-size.ts: msw's worker, the handlers, the client; minified, splitting
// on), its first chunk and whole measured raw and gzipped, then opened in the same Chromium page
// (scripts/lib/first-answer.ts), fresh pages one after another, and the medians of the first answer
// (from navigation) and of the later answers kept with every call's outcome. Figures are given as
// ratios to ours. A peer that cannot be made or measured gets a row saying why, never a number.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measureBrowserBundle, type BrowserBundleSize } from "../lib/browser-size.js";
import { measureFirstAnswer, median, OUR_HANDLERS } from "../lib/first-answer.js";
import { makePeers, peersFolder, sizeEntry } from "./msw-peers.js";
import { countOutcomes, sideBySideRows, sideBySideText, type SideBySide, type SideBySideEntry } from "./msw-table.js";

function entryOf(label: string, version: string | undefined, size: BrowserBundleSize, answers: Awaited<ReturnType<typeof measureFirstAnswer>>): SideBySideEntry {
  return {
    label,
    version,
    figures: {
      firstBytes: size.first.bytes,
      firstGzipBytes: size.first.gzipBytes,
      wholeBytes: size.whole.bytes,
      wholeGzipBytes: size.whole.gzipBytes,
      firstAnswerMs: median(answers.map((a) => a.first)),
      laterAnswerMs: median(answers.flatMap((a) => a.later)),
    },
    outcomes: countOutcomes(answers.flatMap((a) => a.outcomes)),
  };
}


/** Ours and both peers, measured in turn in `root` (a clone); the peers' code in a temporary folder removed after. */
export async function measureMswSideBySide(root: string, pages: number, log: (line: string) => void): Promise<SideBySide> {
  const work = await mkdtemp(join(tmpdir(), "hr-mock-msw-peers-"));
  // msw and faker from the clone (what a user's app would give the peers), the peers' own packages
  // from the folder they were installed in.
  const nodePaths = [join(root, "node_modules"), join(peersFolder(work), "node_modules")];
  try {
    log("msw side by side: ours, bundled and opened in Chromium…");
    const ours = entryOf(OUR_HANDLERS.label, undefined, await measureBrowserBundle(root), await measureFirstAnswer(root, pages));
    const peers: SideBySideEntry[] = [];
    for (const peer of makePeers(root, work)) {
      if (!peer.ok) {
        log(`msw side by side: ${peer.label} ${peer.version} not measured: ${peer.reason}`);
        peers.push({ label: peer.label, version: peer.version, notMeasured: peer.reason });
        continue;
      }
      log(`msw side by side: ${peer.label} ${peer.version}, bundled and opened in Chromium…`);
      try {
        const size = await measureBrowserBundle(root, sizeEntry(peer.setup), nodePaths);
        peers.push(entryOf(peer.label, peer.version, size, await measureFirstAnswer(root, pages, peer, { nodePaths })));
      } catch (error) {
        const reason = `${error instanceof Error ? error.message : String(error)}`.split("\n")[0];
        log(`msw side by side: ${peer.label} not measured: ${reason}`);
        peers.push({ label: peer.label, version: peer.version, notMeasured: reason });
      }
    }
    return { pages, ours, peers };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The side-by-side table on stdout. */
export function printMswSideBySide(result: SideBySide): void {
  console.log("");
  console.log(`MSW handlers side by side (msw/browser + the handlers + the client, esbuild minified, splitting on; Chromium, ${result.pages} fresh pages each, medians; ratios to ours):`);
  console.log(sideBySideText(sideBySideRows(result.ours, result.peers)));
  console.log("");
}
