// Spike (not for main): what the client does today with a board the relay rendered (declarative
// shadow root from test/relay/render-spike.test.ts), when its script arrives after the HTML.
import { expect, inject, it } from 'vitest';
import fragment from './fixtures/render-spike-board.html?raw';
import { stopCollecting, watchFetch } from './helpers/board';

const rowsIn = (root: ShadowRoot | null): number => root?.querySelectorAll('[part~="row"]').length ?? -1;

it('takes over a rendered board: rows kept through the upgrade, then the live ones', async () => {
  const host = document.createElement('div');
  const html = fragment.replace(' base-url>', ` base-url="${inject('sandboxUrl')}" api-key="pro-key:ssr-spike">`);
  host.setHTMLUnsafe(html);
  document.body.append(host);
  const el = host.querySelector('price-board')!;
  const dsd = el.shadowRoot!;
  expect(rowsIn(dsd)).toBe(2);
  const bodyHeight = el.getBoundingClientRect().height;

  // One sample per frame: the rows the page shows then, and the board's height.
  const frames: string[] = [];
  let sampling = true;
  const sample = () => {
    const root = el.shadowRoot;
    const time = root?.querySelector('[part~="row"][data-symbol="usd"] [part~="time"]')?.textContent ?? '';
    const status = root?.querySelector('[part~="status"]')?.textContent ?? '';
    frames.push(`${rowsIn(root)}r/${Math.round(el.getBoundingClientRect().height)}px/t=${time}/s=${status}`);
    if (sampling) requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);

  const sent = watchFetch();
  await import('../../src/price-board'); // defines <price-board>: the element upgrades now
  const sameRoot = el.shadowRoot === dsd;
  const rowsAfterUpgrade = rowsIn(el.shadowRoot);
  // The client's own render: its first update, then its dates and status line.
  await expect.poll(() => (el as unknown as { hasUpdated: boolean }).hasUpdated).toBe(true);
  const rowsAtFirstUpdate = rowsIn(el.shadowRoot);
  await expect
    .poll(() => el.shadowRoot?.querySelector('[part~="row"][data-symbol="usd"] [part~="time"]')?.textContent ?? '')
    .toMatch(/[۰-۹]/);
  await expect.poll(() => el.shadowRoot?.querySelector('[part~="status"]')?.getAttribute('data-status')).toBe('live');
  for (let i = 0; i < 5; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  await new Promise((resolve) => requestAnimationFrame(resolve));
  sampling = false;
  stopCollecting();
  const result = {
    sameRoot,
    rowsAfterUpgrade,
    rowsAtFirstUpdate,
    rowsAtEnd: rowsIn(el.shadowRoot),
    stylesAtEnd: el.shadowRoot!.querySelectorAll('style').length,
    bodyHeight,
    requests: sent.join(' '),
    frames: [...new Set(frames)].join(' | '),
    frameCount: frames.length,
  };
  console.log(JSON.stringify(result));
  expect(result.sameRoot).toBe(true);
});

/** The markup of `node` without comments (the server's and the client's Lit markers differ). */
function markup(node: Element): string {
  const copy = node.cloneNode(true) as Element;
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const c of comments) c.parentNode!.removeChild(c);
  return copy.outerHTML;
}

it('the server and the client render the same rows from the same quotes', async () => {
  const host = document.createElement('div');
  // stream="off": no live quote replaces the snapshot's before the comparison.
  host.setHTMLUnsafe(
    fragment.replace(' base-url>', ` base-url="${inject('sandboxUrl')}" api-key="pro-key:ssr-spike-2" stream="off">`),
  );
  document.body.append(host);
  const el = host.querySelector('price-board')!;
  const server = markup(el.shadowRoot!.querySelector('.board')!);
  await import('../../src/price-board');
  await expect.poll(() => (el as unknown as { hasUpdated: boolean }).hasUpdated).toBe(true);
  await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
  const client = markup(el.shadowRoot!.querySelector('.board')!);
  const lines = (s: string) => s.replace(/></g, '>\n<').split('\n');
  const [a, b] = [lines(server), lines(client)];
  const diff = a.flatMap((line, i) => (line === b[i] ? [] : [`- ${line}\n+ ${b[i]}`]));
  console.log(
    `server ${server.length} chars, client ${client.length} chars, ${diff.length} differing lines\n${diff.join('\n')}`,
  );
  expect(a.length).toBe(b.length);
});
