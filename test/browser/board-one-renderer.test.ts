// One renderer (DESIGN.md §13): the relay's `/render/price-board` fragment (real HTTP, the test
// relay) and the client's own render of the same board from the same quotes (a plain board, no
// declarative shadow root, fetching from that relay) give the same shadow DOM: the same elements,
// parts, text, `data-*` and attribute sets (order ignored; Lit's comments and the style block,
// which the client adopts instead, left out).
import { describe, expect, it } from 'vitest';
import type { PriceBoard } from '../../src/price-board';
import type { Column } from '../../src/shared/attribute-table';
import { followed } from '../../src/board/columns';
import { firstPricesUrl } from '../../src/live/connection';
import { newBoard, relay, useSandbox } from './helpers/board';

useSandbox();

/** The server's shadow root, parsed as an inert document: no element upgrades there. */
async function serverRoot(query: string): Promise<{ root: ShadowRoot; attributes: Record<string, string> }> {
  const res = await fetch(`${relay.url()}/render/price-board?${query}&script=0`);
  expect(res.status).toBe(200);
  const doc = Document.parseHTMLUnsafe(await res.text());
  const el = doc.querySelector('price-board')!;
  expect(el.shadowRoot, 'a declarative shadow root').not.toBeNull();
  const attributes = Object.fromEntries([...el.attributes].map((a) => [a.name, a.value]));
  return { root: el.shadowRoot!, attributes };
}

/**
 * A shadow root as lines: each element with its attributes sorted, each text run with its
 * whitespace collapsed, indented by depth. Comments (Lit's markers differ on each side) and
 * `<style>` are left out.
 */
function shapeOf(root: ShadowRoot | null): string[] {
  const lines: string[] = [];
  const walk = (node: Node, depth: number): void => {
    let text = '';
    const flush = () => {
      const collapsed = text.replace(/\s+/g, ' ').trim();
      if (collapsed) lines.push(`${'  '.repeat(depth)}"${collapsed}"`);
      text = '';
    };
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) text += child.textContent;
      if (child.nodeType !== Node.ELEMENT_NODE || (child as Element).localName === 'style') continue;
      flush();
      const el = child as Element;
      const attributes = [...el.attributes].map((a) => `${a.name}=${JSON.stringify(a.value)}`).sort();
      lines.push(`${'  '.repeat(depth)}<${el.localName} ${attributes.join(' ')}>`);
      walk(el, depth + 1);
    }
    flush();
  };
  if (root) walk(root, 0);
  return lines;
}

/**
 * `lines` in either form of the table: the light form of the first paint (the relay's, the
 * client's first render) and the full one that follows it differ only in the table's classes and
 * the rows' own `data-w` (board-light-form.test shows the two lay out alike); the same otherwise.
 */
function formless(lines: string[]): string[] {
  let inRows = false;
  return lines.map((line) => {
    if (line.includes('class="rowgroup rows"')) inRows = true;
    let out = line.replace(/class="table[^"]*"/, 'class="table"');
    if (inRows) out = out.replace(/ data-w="[^"]*"/, '');
    return out;
  });
}

/**
 * The client's board with the fragment's attributes, on the relay, fetching as any board does. Its
 * first request is fetched anew first: a page's cache keeps the relay's /v1/prices answers a while
 * (max-age, stale-while-revalidate), and an earlier board may have asked for the same symbols
 * before their prices were set.
 */
async function clientBoard(attributes: Record<string, string>): Promise<PriceBoard> {
  const columns = (attributes.columns ?? '').split(',') as Column[];
  await fetch(firstPricesUrl(relay.url(), followed(attributes.symbols!.split(','), columns)), { cache: 'reload' });
  const el = newBoard({ ...attributes, 'base-url': relay.url() });
  document.body.append(el);
  return el;
}

/** Its held prices' words in the render's status line (the market open): «قیمت‌های ۱۰:۴۵ به وقت تهران». */
const HELD_TEXT = /^ *"قیمت‌های [۰-۹]{2}:[۰-۹]{2} به وقت تهران"$/;

/**
 * The render of `query` against the client's board: the same lines once the board has its prices,
 * extras and stream. Where the render says when its held prices were read, the client (following
 * them) says its connection state instead. The render's lines.
 */
async function compare(query: string): Promise<string[]> {
  await import('../../src/price-board');
  const server = await serverRoot(query);
  const expected = formless(shapeOf(server.root));
  const text = expected.findIndex((line) => line.includes('part="status"')) + 2; // after the dot
  const live = server.attributes.stream === 'off' ? 'بدون به‌روزرسانی خودکار' : 'زنده';
  const client = expected.map((line, i) =>
    i === text && HELD_TEXT.test(line) ? line.replace(/".*"/, `"${live}"`) : line,
  );
  const el = await clientBoard(server.attributes);
  await expect.poll(() => formless(shapeOf(el.shadowRoot)), { timeout: 8000 }).toEqual(client);
  return expected;
}

describe('the relay and the client render a board alike', () => {
  // Symbols no test sets: the relay's market is frozen (`global-setup.ts`), so their quotes are old,
  // the market closed, and the status line says so on both sides, with the last change's Jalali
  // date and Tehran time.
  it.each([
    ['symbols=gbp,aed&chart=none&theme=light'],
    ['symbols=gbp,cad,gold_24&chart=none&unit=rial&theme=dark'],
    ['symbols=cny,coin_half,gold_24&chart=none&columns=change-amount,low,high,time&unit=rial&density=compact'],
    ['symbols=aed,silver_ounce&chart=none&stream=off&theme=dark&columns=price,change,change-amount,time'],
  ])('closed market: %s', async (query) => {
    const lines = await compare(query);
    expect(lines.join('\n')).toContain('data-market="closed"');
  });

  // Prices of now: the render says when they were read.
  it.each([
    ['symbols=usd,eur&chart=none&stream=off&columns=price,change,change-amount,high,low,time'],
    ['symbols=gold_18,usd&chart=none&unit=rial&theme=dark&columns=price,change-amount,time'],
    // The bubble's inputs among the symbols (the relay holds the symbols asked).
    ['symbols=coin_emami,usd,ons&chart=none&columns=price,change-amount,change,high,low,time,bubble'],
  ])('open market: %s', async (query) => {
    await relay.set([
      { symbol: 'usd', price: '1064500' },
      { symbol: 'eur', price: '1211000' },
      { symbol: 'gold_18', price: '101230000' },
    ]);
    const lines = await compare(query);
    expect(lines.join('\n')).toContain('data-market="open"');
    expect(lines.some((line) => HELD_TEXT.test(line))).toBe(true);
  });
});
