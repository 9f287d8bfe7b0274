// A value that is either at hand or on its way: for the request path, where most answers are remembered.

/**
 * What a lookup returns when it can usually answer at once (from memory) and only sometimes has to
 * wait (for the store). Answering at once saves a promise and a turn of the microtask queue, which on
 * a request answered from memory cost about as much as the answer itself. It is used on the request
 * path only, where that pays: remembered answers (store/stamped-cache.ts and the routes that serve
 * them, on either database), SQLite's remembered keys (access/sqlite-access-check.ts) and a rate-limit
 * hit spent from a block already held (access/rate-limiter.ts). Anything that always asks the store
 * returns a plain promise.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `use(value)`, now if `value` is at hand, else once it arrives (a rejection passes through). */
export function whenReady<T, R>(value: MaybePromise<T>, use: (ready: T) => R): MaybePromise<R> {
  return value instanceof Promise ? value.then(use) : use(value);
}
