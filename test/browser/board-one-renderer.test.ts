// One renderer (DESIGN.md §13): the relay's `/render/price-board` fragment (real HTTP, the test
// relay) and the client's own render of the same board from the same quotes (a plain board, no
// declarative shadow root, fetching from that relay) give the same shadow DOM: the same elements,
// parts, text, `data-*` and attribute sets (order ignored; Lit's comments and the style block,
// which the client adopts instead, left out).
import { describe, expect, it } from 'vitest';
import type { PriceBoard } from '../../src/price-board';
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

/** The client's board with the fragment's attributes, on the relay, fetching as any board does. */
function clientBoard(attributes: Record<string, string>): PriceBoard {
  const el = newBoard({ ...attributes, 'base-url': relay.url() });
  document.body.append(el);
  return el;
}

const statusLine = (lines: string[]): number => lines.findIndex((line) => line.includes('part="status"'));

describe('the relay and the client render a board alike', () => {
  // The relay's market is frozen (`global-setup.ts`): its quotes are old, the market closed, and the
  // status line says so on both sides, with the last change's Jalali date and Tehran time.
  it.each([
    ['symbols=usd,eur&chart=none&theme=light'],
    ['symbols=usd,eur,gold_18&chart=none&unit=rial&theme=dark'],
    ['symbols=coin_emami,usd,ons&chart=none&columns=price,change-amount,change,high,low,time,bubble'],
    ['symbols=eur,coin_half,gold_24&chart=none&columns=change-amount,low,high,time&unit=rial&density=compact'],
    ['symbols=usd,silver_ounce&chart=none&stream=off&theme=dark&columns=price,change,change-amount,time'],
  ])('closed market: %s', async (query) => {
    await import('../../src/price-board');
    const server = await serverRoot(query);
    const expected = shapeOf(server.root);
    expect(expected.join('\n')).toContain('data-market="closed"');
    const el = clientBoard(server.attributes);
    await expect.poll(() => shapeOf(el.shadowRoot), { timeout: 8000 }).toEqual(expected);
  });

  // Prices of now: the render says when they were read, the client (following them) its connection
  // state; everything else is the same, the status line's element and attributes included.
  it.each([
    ['symbols=usd,eur&chart=none&stream=off&columns=price,change,change-amount,high,low,time'],
    ['symbols=gold_18,usd&chart=none&unit=rial&theme=dark&columns=price,change-amount,time'],
  ])('open market: %s', async (query) => {
    await import('../../src/price-board');
    await relay.set([
      { symbol: 'usd', price: '1064500' },
      { symbol: 'eur', price: '1211000' },
      { symbol: 'gold_18', price: '101230000' },
    ]);
    const server = await serverRoot(query);
    const expected = shapeOf(server.root);
    const at = statusLine(expected);
    expect(expected[at + 2]).toMatch(/^ *"قیمت‌های [۰-۹]{2}:[۰-۹]{2} به وقت تهران"$/);
    const el = clientBoard(server.attributes);
    const live = server.attributes.stream === 'off' ? 'بدون به‌روزرسانی خودکار' : 'زنده';
    const withLiveText = expected.map((line, i) => (i === at + 2 ? line.replace(/".*"/, `"${live}"`) : line));
    await expect.poll(() => shapeOf(el.shadowRoot), { timeout: 8000 }).toEqual(withLiveText);
  });
});
