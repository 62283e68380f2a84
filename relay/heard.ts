/**
 * What the relay counts as the upstream stream saying something: a heartbeat (a comment line, `:
 * ping`, that comes after the connection's first bytes), beside the quotes the stream reader hands
 * over. Bytes alone do not count, nor does a comment the server sends as it opens: an upstream
 * that sends only malformed events, or nothing, is not a stream whose data is current (a silent
 * one is reopened by the reader's watchdog, and a comment at each opening would keep it "heard").
 */
import type { FetchLike } from './from-src';

/** `fetch` whose event-stream bodies call `onHeartbeat` for each later chunk that holds a comment line. */
export function withHeartbeats(fetch: FetchLike, onHeartbeat: () => void): FetchLike {
  return async (input, init) => {
    const res = await fetch(input, init);
    if (!res.ok || !res.body || !/^\s*text\/event-stream/i.test(res.headers.get('content-type') ?? '')) return res;
    const decoder = new TextDecoder();
    let first = true;
    // Whether the next chunk starts a line (the last one ended with a line break).
    let lineStart = true;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const text = decoder.decode(chunk, { stream: true });
          if (!first && /[\r\n]:/.test((lineStart ? '\n' : '') + text)) onHeartbeat();
          if (text) {
            first = false;
            lineStart = /[\r\n]$/.test(text);
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
