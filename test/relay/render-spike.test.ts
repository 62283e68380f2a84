// Spike (not for main): can @lit-labs/ssr render <price-board> from the widgets' own templates?
import { writeFileSync } from 'node:fs';
import { LitElementRenderer, render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import { html } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { html as staticHtml, unsafeStatic as unsafeTag } from 'lit/static-html.js';
import { describe, expect, it } from 'vitest';
import type { ConnectionStatus, Quote } from '../../src/shared/types';

const quote = (symbol: string, title: string, price: string, change: string, updated: string): Quote => ({
  symbol,
  title,
  category: 'currency',
  unit: 'IRR',
  price,
  price_toman: String(BigInt(price) / 10n),
  change_pct: change,
  high: price,
  low: String(BigInt(price) - 1000n),
  updated_at: updated,
});

const now = new Date();
const QUOTES = [
  quote('usd', 'دلار آمریکا', '1023450', '1.25', new Date(now.getTime() - 60_000).toISOString()),
  quote('eur', 'یورو', '1150000', '-0.4', new Date(now.getTime() - 120_000).toISOString()),
];

/**
 * Prototype of the relay's element renderer: the board's extras' styles (status colours, the error
 * box, the rows' hover) beside its own, as the client has them once its extras are there.
 */
class WidgetRenderer extends LitElementRenderer {
  static extraStyles: readonly { cssText: string }[] = [];
  override renderShadow(info: Parameters<LitElementRenderer['renderShadow']>[0]) {
    const out = super.renderShadow(info) as unknown[] | undefined;
    if (!out || this.tagName !== 'price-board') return out as ReturnType<LitElementRenderer['renderShadow']>;
    out.splice(out.indexOf('</style>'), 0, ...WidgetRenderer.extraStyles.map((style) => style.cssText));
    return out as ReturnType<LitElementRenderer['renderShadow']>;
  }
}
const OPTIONS = { elementRenderers: [WidgetRenderer] };

interface Seedable {
  live: { seed(s: { quotes: readonly Quote[]; status: ConnectionStatus; delaySeconds: number }): void };
}

describe('render spike', () => {
  it('renders <price-board> with quotes under Node', async () => {
    const { PriceBoard } = await import('../../src/price-board');
    const extras = await import('../../src/board/board-controllers');
    const { prepareDates } = await import('../../src/board/dates');
    await prepareDates(); // the ICU set-up, once per process, before any render
    PriceBoard.renderWithExtras(extras);
    WidgetRenderer.extraStyles = extras.EXTRA_STYLES;
    // The renderer's one hook before willUpdate: the element is made, its attributes set, not rendered.
    LitElementRenderer.renderOptions.push((element) => {
      (element as unknown as Seedable).live.seed({ quotes: QUOTES, status: 'live', delaySeconds: 0 });
      return undefined;
    });
    const t0 = performance.now();
    // The snapshot beside the render, in light DOM (data, never executed; `<` escaped so no text ends the script).
    const snapshot = JSON.stringify({ at: now.toISOString(), delay_seconds: 0, quotes: QUOTES }).replace(
      /</g,
      '\\u003c',
    );
    const script = unsafeHTML(`<script type="application/json">${snapshot}</script>`);
    const out = collectResultSync(
      render(html`<price-board symbols="usd,eur" chart="none">${script}</price-board>`, OPTIONS),
    );
    const ms = performance.now() - t0;
    writeFileSync('/tmp/spike43-board.html', out);
    // The fixture of test/browser/render-spike.test.ts (the client's takeover of this markup).
    writeFileSync(new URL('../browser/fixtures/render-spike-board.html', import.meta.url), out);
    console.log(`render ${ms.toFixed(1)} ms, ${out.length} chars`);
    expect(out).toContain('shadowrootmode="open"');
    expect(out).toContain('دلار آمریکا');

    // Figures for the spike record: warm render time, sizes with and without Lit's markers, the style hash.
    const runs = 200;
    const t1 = performance.now();
    for (let i = 0; i < runs; i++)
      collectResultSync(render(html`<price-board symbols="usd,eur" chart="none">${script}</price-board>`, OPTIONS));
    const warm = (performance.now() - t1) / runs;
    const bare = out.replace(/<!--\/?lit-(part|node)[^>]*-->/g, '').replace(/<\?>/g, '');
    const style = /<style>([\s\S]*?)<\/style>/.exec(out)![1]!;
    const { gzipSync } = await import('node:zlib');
    const { createHash } = await import('node:crypto');
    const gz = (text: string) => gzipSync(text, { level: 9 }).length;
    console.log(
      JSON.stringify({
        warmRenderMs: Number(warm.toFixed(2)),
        bytes: Buffer.byteLength(out),
        gzip: gz(out),
        withoutMarkers: Buffer.byteLength(bare),
        withoutMarkersGzip: gz(bare),
        styleBytes: Buffer.byteLength(style),
        styleHash: `sha256-${createHash('sha256').update(style).digest('base64')}`,
      }),
    );
  });
});

describe('render spike: the other widgets', () => {
  for (const [tag, entry] of [
    ['price-ticker', '../../src/price-ticker'],
    ['price-converter', '../../src/price-converter'],
  ] as const) {
    it(`renders <${tag}> with quotes under Node`, async () => {
      await import(/* @vite-ignore */ entry);
      const out = collectResultSync(render(staticHtml`<${unsafeTag(tag)} symbols="usd,eur"></${unsafeTag(tag)}>`));
      writeFileSync(`/tmp/spike43-${tag}.html`, out);
      expect(out).toContain('shadowrootmode="open"');
    });
  }
});
