// The options of the request path, checked once where they enter (startMock and the MSW handlers
// take the same ones; startMock's own are in start-options.ts): each mistake is one sentence in a
// MockOptionError. Nothing Node-only: the handlers run in a page.
import { MockOptionError } from "../kernel/option-error.js";
import { tableSettings, type OptionOf, type TableSettings } from "./settings.js";

export { MockOptionError };

const PIPELINE_FLAGS = ["seed", "scale", "rate-limit", "failure-status", "latency", "fail-rate", "journal-size", "journal-memory", "today"] as const;

/** The request path's settings, checked (settings.ts: the one table of rules and defaults). */
export type PipelineSettings = Pick<TableSettings, OptionOf<(typeof PIPELINE_FLAGS)[number]>>;

/** The options startMock and the MSW handlers share, each as the settings table describes it; `today` also takes a Date. */
export type PipelineSettingsInput = Partial<Omit<PipelineSettings, "today">> & { today?: string | Date };

export function checkPipelineOptions(options: PipelineSettingsInput): PipelineSettings {
  return tableSettings(options as Readonly<Record<string, unknown>>, PIPELINE_FLAGS);
}
