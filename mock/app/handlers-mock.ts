// What the MSW handlers answer from, built on their first request (createHandlers loads this module
// then, so a page pays for Prism, the documents and the dataset only when it first calls the API):
// the read API's document and the control API's operations the handlers serve, the seeded dataset,
// and the mock assembled by the one composition root, without webhooks (a page sends none).
import openapi from "../../generated/openapi.json" with { type: "json" };
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import prismOperations from "../../generated/prism-operations.json" with { type: "json" };
import { sharedStartDataset } from "../data/start-datasets.js";
import { loadReadSpec, type PrismOperations } from "../kernel/spec.js";
import type { KeySpec } from "../keys/demo-keys.js";
import { memoryBackend } from "../state/memory.js";
import { assembleMock, type AssembledMock } from "./assemble.js";
import type { PipelineSettings } from "./options.js";

export interface HandlersMockInput {
  settings: PipelineSettings;
  today?: string | Date;
  extraKeys: readonly KeySpec[];
  /** The control API's operations the handlers serve. */
  serves: (operationId: string) => boolean;
  onError: (line: string) => void;
}

export async function assembleHandlersMock(input: HandlersMockInput): Promise<AssembledMock> {
  const spec = await loadReadSpec(openapi, undefined, { document: controlDocument, only: input.serves }, prismOperations as unknown as PrismOperations);
  const { settings } = input;
  const dataset = sharedStartDataset({ seed: settings.seed, scale: settings.scale, today: input.today });
  // No throttle on failed authentication: it slows key guessing over a network, while these
  // handlers answer the page or test process they run in, which has no client address to tell
  // callers apart (every request would share one budget and a test of 401s would be held).
  const state = memoryBackend({ rateLimit: settings.rateLimit, journalSize: settings.journalSize, journalMemoryMb: settings.journalMemoryMb });
  return assembleMock({ spec, settings, dataset, extraKeys: input.extraKeys, state, onError: input.onError, authThrottle: "off" });
}
