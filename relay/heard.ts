/**
 * What the relay counts as the upstream stream saying something: a comment line (the service's
 * heartbeat, `: ping`), beside the quotes the stream reader hands over. Bytes alone do not count:
 * an upstream that sends only malformed events, or nothing, is not a stream whose data is current.
 */
import type { FetchLike } from './from-src';

/** `fetch` whose event-stream bodies call `onComment` for each chunk that holds a comment line. */
export function withHeartbeats(fetch: FetchLike, onComment: () => void): FetchLike {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!res.ok || !res.body || !/^\s*text\/event-stream/i.test(res.headers.get('content-type') ?? '')) return res;
    const decoder = new TextDecoder();
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (/(^|\n):/.test(decoder.decode(chunk, { stream: true }))) onComment();
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
