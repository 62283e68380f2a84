/**
 * Sharing of identical in-flight requests. Each caller keeps its own AbortSignal: one caller
 * aborting rejects only its own promise; the underlying request is aborted only when every caller
 * has gone.
 */
import { abortReason } from './request';

interface Entry {
  promise: Promise<unknown>;
  controller: AbortController;
  users: number;
}

/** A table of requests in flight, keyed by whatever makes two requests identical. */
export class SharedRequests {
  readonly #entries = new Map<string, Entry>();

  /** Joins the request under `key`, starting it with `start(signal)` when none is in flight. */
  run<T>(key: string, start: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    let entry = this.#entries.get(key);
    if (!entry) {
      const controller = new AbortController();
      const created: Entry = { controller, users: 0, promise: start(controller.signal) };
      const forget = (): void => {
        if (this.#entries.get(key) === created) this.#entries.delete(key);
      };
      created.promise.then(forget, forget);
      this.#entries.set(key, created);
      entry = created;
    }
    return this.#join(key, entry, signal) as Promise<T>;
  }

  #join(key: string, entry: Entry, signal?: AbortSignal): Promise<unknown> {
    entry.users++;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        entry.users--;
        if (entry.users === 0) {
          if (this.#entries.get(key) === entry) this.#entries.delete(key);
          entry.controller.abort();
        }
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      entry.promise.then(
        (value) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}
