// The client taking over a board the relay rendered (DESIGN.md §13): the fragment comes from the
// test relay's `/render/price-board` (real HTTP), is put in the page before <price-board> is
// defined, as a page whose module script arrives after its HTML; then the element upgrades.
import { expect, it } from 'vitest';
import type { PriceBoard } from '../../src/price-board';
import { base, collect, nextPaint, relay, sandbox, stopCollecting, useSandbox, watchFetch } from './helpers/board';
import { FRESH_SNAPSHOT_MS } from '../../src/widget/rendered-snapshot';
import { tehranTime } from '../helpers/tehran-time';
import { renderedWidget, useRendered } from './helpers/rendered';

useSandbox();
useRendered();

/** A fragment of the relay's, in the page (not yet upgraded unless <price-board> is defined). */
const renderedBoard = (
  query: string,
  edit?: (html: string) => string,
  attributes?: Record<string, string>,
  appended?: (el: PriceBoard) => void,
): Promise<PriceBoard> => renderedWidget<PriceBoard>('price-board', query, edit, attributes, appended);

const LOADING = 'در حال دریافت قیمت‌ها…';

/** What the snapshot in the fragment says: its event id and quotes. */
function snapshotOf(el: Element): {
  event_id: string;
  data: { at: string; quotes: { symbol: string; updated_at: string }[] };
} {
  return JSON.parse(el.querySelector(':scope > script[type="application/json"]')!.textContent!);
}

/** Each animation frame's rows, height and status line, until `stop()`. */
function sampleFrames(el: PriceBoard): { frames: string[]; stop(): void } {
  const frames: string[] = [];
  let sampling = true;
  const sample = () => {
    const root = el.shadowRoot;
    const rows = root?.querySelectorAll('[part~="row"]').length ?? -1;
    const status = root?.querySelector('[part~="status"]')?.textContent?.trim() ?? '';
    // Whether every row shows a price (a skeleton row has the same height, and no digits).
    const priced = [...(root?.querySelectorAll('[part~="row"] [part~="price"]') ?? [])].every((c) =>
      /[۰-۹]/.test(c.textContent ?? ''),
    );
    frames.push(`${rows} rows/${el.getBoundingClientRect().height}px/${priced ? 'priced' : 'blank'}/${status}`);
    if (sampling) requestAnimationFrame(sample);
  };
  sample();
  return { frames, stop: () => (sampling = false) };
}

const rowPrice = (el: PriceBoard, symbol: string): string =>
  el.shadowRoot?.querySelector(`[part~="row"][data-symbol="${symbol}"] [part~="price"]`)?.textContent ?? '';

it('takes over a fresh render: the same rows and height in every frame, no /v1/prices, the stream resumes from its event id', async () => {
  await relay.set([
    { symbol: 'usd', price: '1023450' },
    { symbol: 'eur', price: '1150000' },
  ]);
  const el = await renderedBoard('symbols=usd,eur&chart=none');
  const rendered = el.shadowRoot!;
  expect(rendered.querySelectorAll('[part~="row"]').length).toBe(2);
  const relayBoard = rendered.querySelector('.board');
  const snapshot = snapshotOf(el);
  expect(Date.now() - Date.parse(snapshot.data.at)).toBeLessThan(FRESH_SNAPSHOT_MS);

  const streamHeaders: Headers[] = [];
  const sent = watchFetch((path, headers) => path.startsWith('/v1/stream') && streamHeaders.push(headers));
  const { frames, stop } = sampleFrames(el);
  await import('../../src/price-board'); // defines <price-board>: the element upgrades now
  expect(el.shadowRoot).toBe(rendered);
  await expect.poll(() => el.status).toBe('live');
  await expect.poll(() => streamHeaders.length).toBeGreaterThan(0);

  // The next change reaches the row over the resumed stream.
  await relay.set([{ symbol: 'usd', price: '1034560' }]);
  await expect.poll(() => rowPrice(el, 'usd')).toMatch(/۱۰۳٬?۴۵۶/);
  stop();
  stopCollecting();

  // Every frame from before the upgrade on: both rows, at the rendered board's height, never the loading words.
  const shapes = new Set(frames.map((f) => f.split('/').slice(0, 3).join('/')));
  expect([...shapes]).toHaveLength(1);
  expect([...shapes][0]).toMatch(/^2 rows\/[1-9][\d.]*px\/priced(\/|$)/);
  expect(frames.filter((f) => f.includes(LOADING))).toEqual([]);
  expect(sent.filter((path) => path.startsWith('/v1/prices'))).toEqual([]);
  expect(streamHeaders[0]?.get('Last-Event-ID')).toBe(snapshot.event_id);
  // Its own render in place of the relay's nodes, with its adopted sheets; the rendered <style> stays
  // beside them (it holds the chunks' rules until those chunks load here too: the same rules).
  expect(el.shadowRoot!.querySelector('.board')).not.toBe(relayBoard);
  expect(el.shadowRoot!.adoptedStyleSheets.length).toBeGreaterThan(0);
  expect([...el.shadowRoot!.children].filter((c) => c.localName === 'style')).toHaveLength(1);
});

it('an old snapshot (past the freshness) stays on screen until the prices answer, which it asks for', async () => {
  await import('../../src/price-board');
  const key = 'pro-key:takeover-old';
  // The board's own service answers (prices and stream) later than the skeleton's delay (render-gate.ts).
  await sandbox.faults([{ kind: 'slow', delayMs: 600, key }]);
  const old = new Date(Date.now() - FRESH_SNAPSHOT_MS - 1000).toISOString();
  const sent = watchFetch();
  let frames: { frames: string[]; stop(): void } | undefined;
  const el = await renderedBoard(
    'symbols=usd,eur&chart=none',
    (html) => html.replace(/"at":"[^"]+"/, `"at":"${old}"`),
    {
      'base-url': base(),
      'api-key': key,
    },
    (board) => (frames = sampleFrames(board)),
  );
  await expect.poll(() => el.status, { timeout: 8000 }).toBe('live');
  frames!.stop();
  expect(sent.filter((path) => path.startsWith('/v1/prices'))).toHaveLength(1);
  // Until the answer, the rendered rows; then the answer's: two rows at one height in every frame.
  expect(new Set(frames!.frames.map((f) => f.split('/').slice(0, 3).join('/'))).size).toBe(1);
  expect(frames!.frames[0]).toMatch(/^2 rows\/[1-9][\d.]*px\/priced(\/|$)/);
});

/**
 * A fresh render of usd and eur taken over by a board on the sandbox (key `key`) whose stream
 * connects 600 ms late (after the board's first update); its frames sampled from the upgrade.
 */
async function overSlowStream(key: string): Promise<{ el: PriceBoard; frames: { frames: string[]; stop(): void } }> {
  await import('../../src/price-board');
  await sandbox.faults([{ path: '/v1/stream', kind: 'slow', delayMs: 600, key }]);
  let frames: { frames: string[]; stop(): void } | undefined;
  const el = await renderedBoard(
    'symbols=usd,eur&chart=none',
    undefined,
    { 'base-url': base(), 'api-key': key },
    (board) => (frames = sampleFrames(board)),
  );
  return { el, frames: frames! };
}

it('a board over a fresh render never says it is loading, even while its stream is slow to connect', async () => {
  const key = 'pro-key:takeover-status';
  const { el, frames } = await overSlowStream(key);
  const statuses = collect<{ status: string }>(el, 'price-board-status');
  await expect.poll(() => (el as unknown as { hasUpdated: boolean }).hasUpdated).toBe(true);
  await nextPaint();
  const atFirstUpdate = el.status;
  await expect.poll(() => sandbox.requests(key, '/v1/stream').then((r) => r.length)).toBeGreaterThan(0);
  frames.stop();
  expect(atFirstUpdate).toBe('live');
  expect(statuses.map((e) => e.detail.status)).not.toContain('loading');
  expect(frames.frames.filter((f) => f.includes(LOADING))).toEqual([]);
  expect(el.shadowRoot!.querySelector('[aria-busy="true"]')).toBeNull();
});

it('says when the rendered prices were read, as the render does, in every frame until its stream is live; then live', async () => {
  // Prices of now (the relay's market is frozen: its old quotes would say the market is closed).
  await relay.set([
    { symbol: 'usd', price: '1023450' },
    { symbol: 'eur', price: '1150000' },
  ]);
  // Until the stream comes, the snapshot's prices are all the board has.
  const { el, frames } = await overSlowStream('pro-key:takeover-read-at');
  const statusText = () => el.shadowRoot?.querySelector('[part~="status"]')?.textContent?.trim();
  const rendered = statusText();
  const relayBoard = el.shadowRoot?.querySelector('.board');
  const { data } = snapshotOf(el);
  // The relay's words: the latest change of the prices shown, in Tehran, in Persian digits.
  const time = tehranTime(Math.max(...data.quotes.map((q) => Date.parse(q.updated_at))));
  expect(rendered).toBe(`قیمت‌های ${time} به وقت تهران`);

  // The client's own first render says the same (the stream is not live yet).
  await expect.poll(() => (el as unknown as { hasUpdated: boolean }).hasUpdated).toBe(true);
  expect(el.shadowRoot!.querySelector('.board')).not.toBe(relayBoard); // its own render, not the relay's
  expect(statusText()).toBe(rendered);
  await expect.poll(() => statusText(), { timeout: 8000 }).toBe('زنده');
  await nextPaint();
  frames.stop();

  // Frame by frame: the read time, then «زنده» once the stream is live; nothing else, never back.
  const texts = frames.frames.map((f) => f.split('/').slice(3).join('/'));
  const live = texts.indexOf('زنده');
  expect(live).toBeGreaterThan(0);
  expect(new Set(texts.slice(0, live))).toEqual(new Set([rendered]));
  expect(new Set(texts.slice(live))).toEqual(new Set(['زنده']));
  expect(el.status).toBe('live');
});
