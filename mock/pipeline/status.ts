// Where a refusal's kind becomes an HTTP status: the one mapping, at the HTTP side of the pipeline.
import type { RefusalKind } from "../kernel/results.js";

const STATUS: Record<RefusalKind, number> = { invalid: 400, "not-found": 404, conflict: 409, unavailable: 503 };

export function statusOf(kind: RefusalKind): number {
  return STATUS[kind];
}
