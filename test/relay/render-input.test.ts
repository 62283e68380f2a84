// A fragment's query read exactly as the element reads its attributes (DESIGN.md §9, §13), over
// real HTTP from a relay on the sandbox: a `symbols` list with a malformed piece renders the ids the
// element keeps (never its default symbols), the piece named to the developer; every symbol
// unknown renders the state the client settles in and tells the client so in the snapshot; a value
// too long to read is named, not dropped in silence.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../relay/from-src';
import { get, startPair, type Pair } from './helpers';

let pair: Pair;
let base: string;
let dist: string;
beforeAll(async () => {
  // embed.html as the build writes it, its body empty: the relay renders the widget into it.
  dist = await mkdtemp(join(tmpdir(), 'relay-input-'));
  await writeFile(join(dist, 'embed.html'), '<!doctype html><html lang="fa"><head></head><body></body></html>');
  pair = await startPair({ CLIENT_RPM: '1000000' }, { distDir: dist });
  base = pair.relay.url;
});
afterAll(async () => {
  await pair.close();
  await rm(dist, { recursive: true });
});

interface SnapshotJson {
  event_id: string;
  unknown?: string[];
  data: { quotes: Quote[] };
}

function snapshotOf(body: string): SnapshotJson {
  const m = /<script type="application\/json">([\s\S]*?)<\/script>/.exec(body);
  expect(m, 'a JSON snapshot').not.toBeNull();
  return JSON.parse(m![1]!) as SnapshotJson;
}

/** The element's open tag. */
const openTag = (body: string, tag = 'price-board'): string =>
  /<[a-z-]+[^>]*>/.exec(body.slice(body.indexOf(`<${tag}`)))![0];
/** The rows' symbols, in order. */
const rowsOf = (body: string): string[] =>
  [...body.matchAll(/part="row"[^>]*data-symbol="([^"]+)"/g)].map((m) => m[1]!);
/** The declarative shadow root: what a browser paints. */
const shadowOf = (body: string): string =>
  /<template shadowrootmode="open">[\s\S]*<\/template>/.exec(body.replace(/ shadowroot="open"/, ''))![0];

describe('a symbols list with a piece that is no symbol id', () => {
  // As `<price-board symbols="usd,gold-18">` reads it: usd alone (src/widget/settings.ts).
  for (const [written, piece] of [
    ['usd,gold-18', 'gold-18'],
    ['usd,coin.emami', 'coin.emami'],
    ['usd, دلار', encodeURIComponent('دلار')],
  ] as const) {
    it(`renders ${JSON.stringify(written)} as the element reads it, the ids it keeps, naming ${piece}`, async () => {
      const answer = await get(base, `/render/price-board?symbols=${encodeURIComponent(written)}&chart=none`);
      expect(answer.status).toBe(200);
      expect(answer.headers['x-price-board-invalid']).toBe('symbols');
      expect(answer.headers['x-price-board-invalid-symbols']).toBe(piece);
      expect(openTag(answer.body)).toBe('<price-board symbols="usd" chart="none">');
      expect(rowsOf(answer.body)).toEqual(['usd']);
      // The snapshot holds what the element follows: taking over, it asks nothing.
      expect(snapshotOf(answer.body).data.quotes.map((q) => q.symbol)).toEqual(['usd']);
      // The same paint as the query that says usd alone.
      const plain = await get(base, '/render/price-board?symbols=usd&chart=none');
      expect(shadowOf(answer.body)).toBe(shadowOf(plain.body));
    });
  }

  it('renders the default symbols when no piece is an id, as the element does', async () => {
    const answer = await get(base, '/render/price-board?symbols=gold-18&chart=none');
    expect(answer.headers['x-price-board-invalid']).toBe('symbols');
    expect(answer.headers['x-price-board-invalid-symbols']).toBe('gold-18');
    expect(openTag(answer.body)).toBe('<price-board chart="none">');
    expect(rowsOf(answer.body)).toEqual(['usd', 'eur', 'gold_18', 'coin_emami', 'ons']);
  });

  it('names at most ten pieces, each cut, in one header line', async () => {
    const pieces = Array.from({ length: 12 }, (_, i) => `bad-${i}-${'x'.repeat(40)}\r\nX-Injected: 1`);
    const answer = await get(base, `/render/price-ticker?symbols=${encodeURIComponent(['eur', ...pieces].join(','))}`);
    const named = String(answer.headers['x-price-board-invalid-symbols']).split(',');
    expect(named).toHaveLength(10);
    expect(named[0]).toBe(encodeURIComponent(pieces[0]!.slice(0, 30)));
    expect(answer.headers['x-injected']).toBeUndefined();
    expect(openTag(answer.body, 'price-ticker')).toBe('<price-ticker symbols="eur">');
  });

  it('renders embed.html the same way', async () => {
    const answer = await get(base, '/embed.html?symbols=usd,gold-18&chart=none');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-price-board-invalid-symbols']).toBe('gold-18');
    expect(openTag(answer.body)).toBe('<price-board symbols="usd" chart="none">');
    expect(rowsOf(answer.body)).toEqual(['usd']);
    expect(snapshotOf(answer.body).data.quotes.map((q) => q.symbol)).toEqual(['usd']);
  });
});

describe('a query whose every symbol the service does not have', () => {
  it('renders the state the client settles in: no rows, no chart, the status it ends with, and names them in the snapshot', async () => {
    const answer = await get(base, '/render/price-board?symbols=btc');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-price-board-unknown']).toBe('btc');
    // Kept as written: without them the element would show its default symbols.
    expect(openTag(answer.body)).toBe('<price-board symbols="btc">');
    expect(rowsOf(answer.body)).toEqual([]);
    expect(answer.body).toContain('data-code="unknown_symbol"');
    // Told nothing is followed, the client says `polling` (live/hub-status.ts), and draws no chart area.
    expect(answer.body).toMatch(/<div part="status" data-status="polling"/);
    expect(shadowOf(answer.body)).not.toMatch(/class="chart-(pending|section)"|part="chart"/);
    // The snapshot tells the client, which then asks nothing for them (live/hub.ts startFrom).
    expect(snapshotOf(answer.body)).toMatchObject({ unknown: ['btc'], data: { quotes: [] } });
  });

  it('names in the snapshot no symbol left out of the element', async () => {
    const answer = await get(base, '/render/price-board?symbols=usd,btc&chart=none');
    expect(snapshotOf(answer.body).unknown).toBeUndefined();
    expect(answer.body).toMatch(/<div part="status" data-status="live"/);
  });
});

describe('a value too long to read', () => {
  it('is named in X-Price-Board-Invalid and left at its default', async () => {
    const theme = await get(base, `/render/price-board?symbols=usd&chart=none&theme=${'x'.repeat(5000)}`);
    expect(theme.status).toBe(200);
    expect(theme.headers['x-price-board-invalid']).toBe('theme');
    expect(openTag(theme.body)).toBe('<price-board symbols="usd" chart="none">');
    const symbols = Array.from({ length: 400 }, (_, i) => `sym${i}`).join(',');
    expect(symbols.length).toBeGreaterThan(2000);
    const long = await get(base, `/render/price-board?chart=none&symbols=${symbols}&theme=dark`);
    expect(long.headers['x-price-board-invalid']).toBe('symbols');
    expect(openTag(long.body)).toBe('<price-board theme="dark" chart="none">');
  });
});
