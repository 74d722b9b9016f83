// The options the mock's request path takes, checked once where they enter (startMock and the MSW
// handlers take the same ones): each mistake is one sentence in a MockOptionError.
import { normalizeToday } from "../data/dataset.js";
import type { FailureStatus } from "./envelope.js";
import { RATE_LIMIT_DEFAULT } from "./limits.js";

export class MockOptionError extends Error {
  override name = "MockOptionError";
}

export interface PipelineSettingsInput {
  seed?: number;
  scale?: number;
  today?: string | Date;
  rateLimit?: number | "off";
  failureStatus?: FailureStatus;
  latencyMs?: number;
  failRate?: number;
}

export interface PipelineSettings {
  seed: number;
  scale: number;
  rateLimit: number | "off";
  failureStatus: FailureStatus;
  latencyMs: number;
  failRate: number;
}

export function checkPipelineOptions(options: PipelineSettingsInput): PipelineSettings {
  const { seed = 1, scale = 1, rateLimit = RATE_LIMIT_DEFAULT, failureStatus = "http", latencyMs = 0, failRate = 0 } = options;
  if (!Number.isSafeInteger(seed)) throw new MockOptionError(`seed must be an integer, got ${seed}`);
  if (!(typeof scale === "number" && Number.isFinite(scale) && scale > 0 && scale <= 1000)) {
    throw new MockOptionError(`scale must be a number above 0 and at most 1000, got ${scale}`);
  }
  if (rateLimit !== "off" && !(Number.isInteger(rateLimit) && rateLimit >= 1)) {
    throw new MockOptionError(`rateLimit must be a whole number of at least 1 or "off", got ${rateLimit}`);
  }
  if (failureStatus !== "http" && failureStatus !== 200) throw new MockOptionError(`failureStatus must be "http" or 200, got ${failureStatus}`);
  if (!(typeof latencyMs === "number" && Number.isFinite(latencyMs) && latencyMs >= 0 && latencyMs <= 600_000)) {
    throw new MockOptionError(`latencyMs must be a number of milliseconds from 0 to 600000, got ${latencyMs}`);
  }
  if (!(typeof failRate === "number" && failRate >= 0 && failRate <= 1)) throw new MockOptionError(`failRate must be a number from 0 to 1, got ${failRate}`);
  try {
    normalizeToday(options.today);
  } catch (error) {
    throw new MockOptionError((error as Error).message);
  }
  return { seed, scale, rateLimit, failureStatus, latencyMs, failRate };
}
