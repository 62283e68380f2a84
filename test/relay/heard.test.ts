// relay/heard.ts on chunk boundaries it cannot choose over a socket: a Response built from the
// chunks stands in for the upstream's (the transform sees bytes, whoever sent them).
import { describe, expect, it } from 'vitest';
import { withHeartbeats } from '../../relay/heard';

/** How many heartbeats the wrapper hears in an event-stream body sent as `chunks`. */
async function heartbeats(chunks: string[]): Promise<number> {
  let heard = 0;
  const encoder = new TextEncoder();
  const fetch = withHeartbeats(
    () =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const c of chunks) controller.enqueue(encoder.encode(c));
              controller.close();
            },
          }),
          { headers: { 'Content-Type': 'text/event-stream' } },
        ),
      ),
    () => (heard += 1),
  );
  const res = await fetch('http://upstream.invalid/v1/stream', {});
  expect(await res.text()).toBe(chunks.join('')); // the body passes through whole
  return heard;
}

describe('withHeartbeats', () => {
  it('hears a comment line after the opening bytes, at a chunk start or inside one, after LF or CR', async () => {
    expect(await heartbeats([': open\n\n', ': ping\n\n'])).toBe(1);
    expect(await heartbeats(['event: quote\ndata: {}\n\n', 'x\n: ping\n\n'])).toBe(1);
    expect(await heartbeats(['data: {}\n', '\r: ping\r\r'])).toBe(1);
    expect(await heartbeats(['data: {}\n\n', ': ping\n\n', ': ping\n\n'])).toBe(2);
  });

  it('hears neither the comment a server sends as it opens, nor a colon inside a line cut between chunks', async () => {
    expect(await heartbeats([': open\n\n'])).toBe(0);
    expect(
      await heartbeats([
        ': open\n\nevent: quote\ndata: {"symbol"',
        ': oops}\n\n',
        'event: quote\ndata: {"a"',
        ':1}\n\n',
      ]),
    ).toBe(0);
  });
});
