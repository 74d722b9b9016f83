// Slows guessing of API keys: each client address may fail authentication a few times in a short
// window; past that, its 401 answers are held back (the edge waits before sending them), so one
// address tries at most (open connections / hold) keys a second instead of thousands. A request
// with a valid key is never held.

export interface AuthThrottle {
  /** Records a failed authentication from `client`; how long to hold its answer (ms). */
  failed(client: string | undefined): number;
}

export interface AuthThrottleOptions {
  /** Failures an address may make in `windowMs` before its answers are held. */
  budget: number;
  windowMs: number;
  holdMs: number;
  now: () => number;
  /** Addresses remembered at most (the oldest is forgotten first). */
  maxClients?: number;
}

export const AUTH_THROTTLE = { budget: 20, windowMs: 10_000, holdMs: 1_000 } as const;

export function createAuthThrottle(options: AuthThrottleOptions): AuthThrottle {
  const { budget, windowMs, holdMs, now, maxClients = 10_000 } = options;
  // Per address: the start of its current window and the failures in it.
  const windows = new Map<string, { start: number; failures: number }>();
  return {
    failed(client) {
      const key = client ?? "";
      const at = now();
      let window = windows.get(key);
      if (!window || at - window.start >= windowMs) {
        windows.delete(key);
        if (windows.size >= maxClients) windows.delete(windows.keys().next().value!);
        window = { start: at, failures: 0 };
        windows.set(key, window);
      }
      window.failures += 1;
      return window.failures > budget ? holdMs : 0;
    },
  };
}
