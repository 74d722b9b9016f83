// HTTP statuses as the client reads them; below errors.ts and rate-limited.ts, which both judge by them.

/** True for statuses that mean failure (4xx and 5xx). */
export function isErrorStatus(status: number): boolean {
  return status >= 400 && status <= 599;
}
