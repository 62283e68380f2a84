/**
 * Timers and requests of the data layer still pending, so that a test can prove that closing
 * everything really leaves nothing behind. The product carries no book-keeping: importing this
 * wraps `setTimeout`/`clearTimeout` and `fetch` of the test's realm, and counts
 * - a timer set by `src/api/timer.ts` (every data-layer timer goes through it) until it fires or
 *   is cleared;
 * - a fetch made from `src/api/request.ts` or `src/live/sse.ts` until its body is read to the end,
 *   cancelled or broken, or the fetch fails.
 */
const TIMER_SOURCE = /[\\/]src[\\/]api[\\/]timer\.ts/;
const REQUEST_SOURCE = /[\\/]src[\\/](api[\\/]request|live[\\/]sse)\.ts/;
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

interface Counts {
  timers: Set<unknown>;
  requests: number;
}

const KEY = Symbol.for('price-board.test.pending-work');
const realm = globalThis as typeof globalThis & { [KEY]?: Counts };

/** The frames of the current stack below the wrapper. */
// Frames 0-2: the message, this function and the wrapper.
const callers = (): string => new Error().stack?.split('\n').slice(3).join('\n') ?? '';

function install(): Counts {
  const counts: Counts = { timers: new Set(), requests: 0 };
  const { setTimeout: realSet, clearTimeout: realClear, fetch: realFetch } = globalThis;

  globalThis.setTimeout = ((fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    if (!TIMER_SOURCE.test(callers().split('\n')[0] ?? '')) return realSet(fn, ms, ...args);
    const id: unknown = realSet(
      (...a: unknown[]) => {
        counts.timers.delete(id);
        fn(...a);
      },
      ms,
      ...args,
    );
    counts.timers.add(id);
    return id;
  }) as typeof setTimeout;

  globalThis.clearTimeout = ((id: Parameters<typeof clearTimeout>[0]) => {
    counts.timers.delete(id);
    realClear(id);
  }) as typeof clearTimeout;

  globalThis.fetch = async (input, init) => {
    if (!REQUEST_SOURCE.test(callers())) return realFetch(input, init);
    counts.requests++;
    let open = true;
    const done = (): void => {
      if (open) counts.requests--;
      open = false;
    };
    let response: Response;
    try {
      response = await realFetch(input, init);
    } catch (error) {
      done();
      throw error;
    }
    if (!response.body || NULL_BODY_STATUS.has(response.status)) {
      done();
      return response;
    }
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            done();
            controller.close();
          } else controller.enqueue(chunk.value);
        } catch (error) {
          done();
          controller.error(error);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return counts;
}

const counts = (realm[KEY] ??= install());

/** Timers and requests of the data layer still pending. */
export function pendingWork(): { timers: number; requests: number } {
  return { timers: counts.timers.size, requests: counts.requests };
}
