/**
 * Book-keeping of timers and requests started by the data layer, so that tests (and the memory
 * benchmark) can prove that closing everything really leaves nothing behind.
 */
let timers = 0;
let requests = 0;

/** Runs `fn` after `ms`; returns a function that cancels it. Counted until it fires or is cancelled. */
export function startTimer(fn: () => void, ms: number): () => void {
  let pending = true;
  timers++;
  const id = setTimeout(() => {
    if (!pending) return;
    pending = false;
    timers--;
    fn();
  }, Math.max(0, ms));
  return () => {
    if (!pending) return;
    pending = false;
    timers--;
    clearTimeout(id);
  };
}

/** Counts `work` as an open request until it settles; returns it unchanged. */
export function trackRequest<T>(work: Promise<T>): Promise<T> {
  requests++;
  const done = (): void => {
    requests--;
  };
  work.then(done, done);
  return work;
}

/** Timers and requests of the data layer still pending. */
export function pendingWork(): { timers: number; requests: number } {
  return { timers, requests };
}
