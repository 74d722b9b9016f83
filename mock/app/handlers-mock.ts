// What the MSW handlers answer from, built on their first request (createHandlers loads this module
// then, so a page pays for Prism, the documents and the dataset only when it first calls the API):
// the operations the handlers serve as generated/msw-spec.json holds them (Prism's reader's output
// and the part of the documents the mock reads beside it, nothing of the operations not served;
// its repeated parts written once, shared-json.ts),
// the seeded dataset, and the mock assembled by the one composition root, without webhooks (a page
// sends none).
import mswSpecFile from "../../generated/msw-spec.json" with { type: "json" };
import { expandShared } from "../kernel/shared-json.js";
import { sharedStartDataset } from "../data/start-datasets.js";
import { loadReadSpec, type PrismOperations } from "../kernel/spec.js";
import { openBackend } from "../state/open.js";
import { assembleMock, type AssembledMock, type AssembleOptions } from "./assemble.js";

type Part = { document: object; operations: unknown[] };

export async function assembleHandlersMock(input: Pick<AssembleOptions, "settings" | "extraKeys" | "onError">): Promise<AssembledMock> {
  const { "openapi.json": read, "control-openapi.json": control } = expandShared<Record<string, Part>>(mswSpecFile);
  const ahead = { "openapi.json": read.operations, "control-openapi.json": control.operations } as unknown as PrismOperations;
  const spec = await loadReadSpec(read.document, undefined, { document: control.document, only: () => true }, ahead);
  const { settings } = input;
  const dataset = sharedStartDataset({ seed: settings.seed, scale: settings.scale, today: settings.today });
  // No --state: in memory, opened as startMock opens any (a page's build leaves the other backends out).
  const state = await openBackend({ ...settings, onError: input.onError });
  // No throttle on failed authentication: it slows key guessing over a network, while these
  // handlers answer the page or test process they run in, which has no client address to tell
  // callers apart (every request would share one budget and a test of 401s would be held).
  return assembleMock({ spec, settings, dataset, extraKeys: input.extraKeys, state, onError: input.onError, authThrottle: "off" });
}
