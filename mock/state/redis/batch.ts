// Calls sent together: one script call (one round trip, one command for the client to encode and
// parse) for many requests instead of one each. A batch goes as soon as none is on its way; the
// calls made while one is on its way wait for it and go together next, so the busier the replica,
// the larger its batches. Each caller still gets its own answer, and nothing is answered before
// Redis has done what its batch asked.

/** The most calls one batch takes (a script runs alone in Redis: batches stay short). */
export const RECORDS_PER_CALL = 100;
const MOST = RECORDS_PER_CALL;

export class Batcher<I, O> {
  private pending: { input: I; resolve: (output: O) => void; reject: (error: unknown) => void }[] = [];
  private sending = false;

  /** `send` answers one output per input, in order. */
  constructor(private readonly send: (inputs: I[]) => Promise<O[]>) {}

  add(input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      // After this turn's I/O callbacks, so that requests arriving together start together.
      if (!this.sending && this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    if (this.sending || this.pending.length === 0) return;
    this.sending = true;
    const batch = this.pending.splice(0, MOST);
    this.send(batch.map((call) => call.input))
      .then(
        (outputs) => batch.forEach((call, i) => call.resolve(outputs[i])),
        (error: unknown) => batch.forEach((call) => call.reject(error)),
      )
      .finally(() => {
        this.sending = false;
        this.flush();
      });
  }
}
