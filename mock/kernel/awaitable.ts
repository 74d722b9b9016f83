// A value now, or a promise of it: what a call answers when the state behind it may live in this
// process (at once) or elsewhere (a promise). `andThen` keeps the first kind synchronous, so the hot
// path of a mock without shared state allocates no promise. (Not named `then`: a module exporting `then` is a thenable when imported dynamically.)

export type Awaitable<T> = T | Promise<T>;

/** `next(value)`, at once when `value` is not a promise. */
export function andThen<T, U>(value: Awaitable<T>, next: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
