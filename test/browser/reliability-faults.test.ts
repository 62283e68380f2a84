// The sandbox's stream faults as a real browser sees them: the reliability suite relies on them
// doing what sandbox/README.md says. (Node's fetch is more forgiving than Chromium's, so these
// checks run here rather than in test/sandbox.)
import { afterEach, describe, expect, it } from 'vitest';
import { base, sandbox, until } from './helpers/board';

const KEY = `pro-key:reliability-faults-${Date.now().toString(36)}`;

/** Opens the stream and reads it to its end: the event names received, and how it ended. */
async function readStream(key: string): Promise<{ events: string[]; ending: 'done' | 'error' }> {
  const res = await fetch(`${base()}/v1/stream?symbols=usd,eur`, { headers: { 'X-API-Key': key } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { events: names(text), ending: 'done' };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { events: names(text), ending: 'error' };
  }
}
const names = (text: string): string[] => [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]!);

afterEach(() => sandbox.reset());

describe('sandbox stream faults in Chromium', { timeout: 30_000 }, () => {
  // Regression: the sandbox destroyed the socket right behind the event's bytes, and Chromium then
  // discarded bytes it had already received: the "sent" event, often even the snapshot before it,
  // never reached the page. Each drop then looked like a connection without a single event, which
  // pushed `stream="auto"` boards into polling and made the reliability suite test something else.
  it('drop_stream delivers its N-th event, then breaks the connection without a proper end', async () => {
    await sandbox.faults([{ path: '/v1/stream', kind: 'drop_stream', afterEvents: 1, key: KEY }]);
    for (let i = 0; i < 12; i++) {
      expect(await readStream(KEY), `connection ${i + 1}`).toEqual({ events: ['quotes'], ending: 'error' });
    }
    expect((await sandbox.stats()).openStreams).toBe(0);
  });

  it('drop_stream after two events: the snapshot and one change arrive, then the break', async () => {
    await sandbox.faults([{ path: '/v1/stream', kind: 'drop_stream', afterEvents: 2, key: KEY }]);
    for (let i = 0; i < 4; i++) {
      const opened = async () => (await sandbox.requests(KEY, '/v1/stream')).filter((r) => r.status === 200).length;
      const before = await opened();
      const reading = readStream(KEY);
      // The change must come after the snapshot: once the sandbox has opened this stream.
      await until(async () => (await opened()) > before, 'the stream did not open');
      await sandbox.market({ set: [{ symbol: 'eur', price: String(1_230_000 + i * 10) }] });
      expect(await reading, `connection ${i + 1}`).toEqual({ events: ['quotes', 'quote'], ending: 'error' });
    }
  });
});
