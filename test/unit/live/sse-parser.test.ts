import { describe, expect, it } from 'vitest';
import { sseParser } from '../../../src/live/sse';

/** Feeds `chunks` and returns the events and retries heard, and whether every feed was within `max`. */
function parse(chunks: string[], max = 1_000) {
  const events: [string, string, string | undefined][] = [];
  const retries: number[] = [];
  const feed = sseParser({ onEvent: (...e) => events.push(e), onRetry: (ms) => retries.push(ms) }, max);
  const ok = chunks.map((c) => feed(c)).every(Boolean);
  return { events, retries, ok };
}

describe('sseParser', () => {
  it('reads events by any line ending, a CRLF split across chunks included', () => {
    const { events } = parse(['event: quote\r', '\ndata: 1\r\n\r', '\nid: 7\ndata: 2\rdata: 3\r\r', 'data:4\n', '\n']);
    expect(events).toEqual([
      ['quote', '1', undefined],
      ['message', '2\n3', '7'],
      ['message', '4', undefined],
    ]);
  });

  it('ignores comments, unknown fields and events without data; a blank event name is message', () => {
    const { events } = parse([': heartbeat\n\nevent: x\n\nfoo: bar\nevent:\ndata\n\n']);
    expect(events).toEqual([['message', '', undefined]]);
  });

  it('keeps one space after the colon, takes retry only as digits, and an id with NUL never', () => {
    const { events, retries } = parse(['retry: 20\nretry: 2x\nid: a\0b\ndata:  two\n\nid:\ndata: 3\n\n']);
    expect(retries).toEqual([20]);
    expect(events).toEqual([
      ['message', ' two', undefined],
      ['message', '3', ''],
    ]);
  });

  it('says when an unterminated line and the event data outgrow the bound, however it is cut', () => {
    expect(parse(['data: ' + 'x'.repeat(600), 'x'.repeat(600)]).ok).toBe(false);
    expect(parse(['data: ' + 'x'.repeat(600) + '\n', 'data: ' + 'x'.repeat(600) + '\n']).ok).toBe(false);
    expect(parse(['data: ' + 'x'.repeat(600) + '\n\n', 'data: ' + 'x'.repeat(600) + '\n\n']).ok).toBe(true);
  });
});
