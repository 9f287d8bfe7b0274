// A value that is either at hand or on its way: for the request path, where most answers are remembered.

/**
 * What a lookup returns when it can usually answer at once (from memory) and only sometimes has to
 * wait (for the store). Answering at once saves a promise and a turn of the microtask queue, which on
 * a request answered from memory cost about as much as the answer itself.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `use(value)`, now if `value` is at hand, else once it arrives (a rejection passes through). */
export function whenReady<T, R>(value: MaybePromise<T>, use: (ready: T) => R): MaybePromise<R> {
  return value instanceof Promise ? value.then(use) : use(value);
}
