// <price-converter> against the real sandbox in Chromium: exact results both ways, any digits in,
// Persian messages for bad input, dollar-priced symbols through usd, live prices, and copying.
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../../src/price-converter';
import type { PriceConverter } from '../../src/price-converter';
import { base, LATIN_DIGIT, sandbox, until, useSandbox } from './helpers/board';
import { q } from './helpers/widgets';

const KEY = 'pro-key:converter';

useSandbox();

async function converter(attrs: { symbols?: string; unit?: string } = {}): Promise<PriceConverter> {
  const el = await fixture<PriceConverter>(
    html`<price-converter base-url=${base()} api-key=${KEY} symbols=${attrs.symbols ?? 'usd,gold_18,ons'} unit=${attrs.unit ?? 'toman'}></price-converter>`,
  );
  await until(() => result(el).dataset.state === 'ok', 'no result');
  return el;
}

const result = (el: PriceConverter) => q(el, '[part~="result"]')!;
const amount = (el: PriceConverter) => q<HTMLInputElement>(el, '[part~="amount"]')!;

/** Waits until the result shows `text`. */
const untilResult = (el: PriceConverter, text: string) =>
  until(() => result(el).textContent!.includes(text), `got ${result(el).textContent}`);

async function type(el: PriceConverter, text: string): Promise<void> {
  // The field is found by its label, which names the symbol: let a property set just now render.
  await el.updateComplete;
  await userEvent.clear(amount(el));
  await userEvent.type(amount(el), text);
}

describe('<price-converter>', () => {
  it('multiplies 1.5 by a 20-digit price exactly, with Persian digits', async () => {
    await sandbox.prices({ usd: '123456789012345678910' });
    const el = await converter();
    await type(el, '1.5');
    // 1.5 × 12345678901234567891 toman = …836.5, in whole toman half-up (DESIGN §9)
    await untilResult(el, '۱۸٬۵۱۸٬۵۱۸٬۳۵۱٬۸۵۱٬۸۵۱٬۸۳۷');
    expect(result(el).textContent).toContain('تومان');
    expect(result(el).textContent).not.toMatch(LATIN_DIGIT);
    expect(q(el, '[part~="converter"]')!.getAttribute('dir')).toBe('rtl');
  });

  it('accepts Persian and Arabic digits and both decimal separators', async () => {
    await sandbox.prices({ usd: '1000000' });
    const el = await converter();
    for (const text of ['۲٫۵', '٢.٥', '2.5', '۲.5']) {
      await type(el, text);
      await until(() => result(el).textContent!.includes('۲۵۰٬۰۰۰'), `${text} gave ${result(el).textContent}`);
    }
  });

  it('divides toman into grams rounded half-up to 3 digits, and coins and currencies to 2', async () => {
    await sandbox.prices({ gold_18: '30000000', usd: '3000000' });
    const el = await converter();
    el.reverse = true;
    el.symbol = 'gold_18';
    await type(el, '2000000');
    await untilResult(el, '۰٫۶۶۷');
    el.symbol = 'usd';
    await type(el, '200000');
    await untilResult(el, '۰٫۶۷');
    expect(result(el).textContent).not.toContain('۰٫۶۶۷');
  });

  it('converts ons through usd and says so', async () => {
    await sandbox.prices({ ons: '2000.5', usd: '1000000' });
    const el = await converter();
    el.symbol = 'ons';
    await type(el, '2');
    await untilResult(el, '۴۰۰٬۱۰۰٬۰۰۰');
    expect(q(el, '.via')!.textContent).toContain('دلار');
    expect(q(el, '.via')!.textContent).toContain('۱۰۰٬۰۰۰');
  });

  it('shows a Persian message for bad input, never NaN', async () => {
    const el = await converter();
    for (const text of ['abc', '1.2.3', '-4']) {
      await type(el, text);
      await until(() => result(el).dataset.state === 'invalid', `${text} was accepted`);
      expect(result(el).textContent).toMatch(/[\u0600-\u06FF]/);
      expect(result(el).textContent).not.toMatch(/NaN|undefined|Infinity/);
      expect(amount(el).getAttribute('aria-invalid')).toBe('true');
    }
  });

  it('follows live prices', async () => {
    await sandbox.prices({ usd: '1000000' });
    const el = await converter();
    await type(el, '3');
    await until(() => result(el).textContent!.includes('۳۰۰٬۰۰۰'), 'first');
    await sandbox.prices({ usd: '1200000' });
    await until(() => result(el).textContent!.includes('۳۶۰٬۰۰۰'), `did not follow: ${result(el).textContent}`);
  });

  it('uses rials for unit="rial"', async () => {
    await sandbox.prices({ usd: '1000000' });
    const el = await converter({ unit: 'rial' });
    await type(el, '2');
    await untilResult(el, '۲٬۰۰۰٬۰۰۰ ریال');
  });

  it('lists the symbols in order with their titles, and copies the result', async () => {
    await sandbox.prices({ usd: '1000000' });
    const el = await converter();
    const options = [...q<HTMLSelectElement>(el, '[part~="symbol"]')!.options];
    expect(options.map((o) => o.value)).toEqual(['usd', 'gold_18', 'ons']);
    expect(options[0]!.textContent).toBe(el.quotes.get('usd')!.title);
    const write = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    await type(el, '1');
    q<HTMLButtonElement>(el, 'button.copy')!.click();
    await until(() => q(el, '.copied')!.textContent === 'کپی شد', 'no copy feedback');
    expect(write).toHaveBeenCalledWith('۱۰۰٬۰۰۰ تومان');
    write.mockRestore();
  });

  it('rounds a toman or rial result to whole units, half-up: 2 ounces through a fractional dollar', async () => {
    // 2 × 2000.37 dollars × 100,000.5 toman = 400,076,000.37 toman; × 1,000,005 rial = 4,000,760,003.7 rial
    await sandbox.prices({ ons: '2000.37', usd: '1000005' });
    const el = await converter();
    el.symbol = 'ons';
    await type(el, '2');
    await untilResult(el, '۴۰۰٬۰۷۶٬۰۰۰ تومان');
    expect(result(el).textContent).not.toContain('٫');
    el.setAttribute('unit', 'rial');
    await untilResult(el, '۴٬۰۰۰٬۷۶۰٬۰۰۴ ریال');
  });

  it('gives a small result enough digits not to be 0: a million toman in gold ounces', async () => {
    // 1,000,000 / (4012.35 × 105,000 = 421,296,750) = 0.00237…
    await sandbox.prices({ ons: '4012.35', usd: '1050000' });
    const el = await converter();
    el.reverse = true;
    el.symbol = 'ons';
    await type(el, '۱۰۰۰۰۰۰');
    await untilResult(el, '۰٫۰۰۲۴ انس طلا');
  });

  it('names the unit of the symbol side: گرم for gold, عدد for coins', async () => {
    await sandbox.prices({ gold_18: '30000000', coin_emami: '1000000000' });
    const el = await converter({ symbols: 'gold_18,coin_emami' });
    el.reverse = true;
    await type(el, '303000');
    await untilResult(el, '۰٫۱۰۱ گرم طلای ۱۸ عیار');
    el.reverse = false;
    await until(() => q(el, 'label')!.textContent!.includes('گرم'), `label ${q(el, 'label')!.textContent}`);
    el.reverse = true;
    el.symbol = 'coin_emami';
    await type(el, '200000000');
    await untilResult(el, '۲ عدد سکه امامی');
  });

  it('shows its default amount in Persian digits and keeps what is typed as typed', async () => {
    const el = await converter();
    expect(amount(el).value).toBe('۱');
    await type(el, '25');
    await el.updateComplete;
    expect(amount(el).value).toBe('25');
  });

  it('keeps a huge number inside its card', async () => {
    await sandbox.prices({ usd: '123456789012345678901234567890' });
    const el = await converter();
    el.style.width = '280px';
    await type(el, '987654321098765432109876543210');
    await until(() => (result(el).textContent!.match(/[۰-۹]/g) ?? []).length > 50, `got ${result(el).textContent}`);
    const card = q(el, '[part~="converter"]')!.getBoundingClientRect();
    for (const part of el.shadowRoot!.querySelectorAll<HTMLElement>('[part], button, .value')) {
      const box = part.getBoundingClientRect();
      expect(box.left, part.className || part.getAttribute('part')!).toBeGreaterThanOrEqual(card.left - 1);
      expect(box.right, part.className || part.getAttribute('part')!).toBeLessThanOrEqual(card.right + 1);
    }
    expect(el.getBoundingClientRect().width).toBeLessThanOrEqual(280);
  });
});
