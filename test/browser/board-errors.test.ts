// Failures as <price-board> shows them: part="error" with a Persian message and data-code, the
// price-board-error event, and rows that keep what the board knew.
import { elementUpdated, fixture, html } from '@open-wc/testing-helpers/pure';
import { describe, expect, it } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import type { ErrorDetail } from '../../src/shared/errors';
import type { Quote } from '../../src/shared/types';
import { base, cell, collect, part, row, sandbox, until, untilLoaded, useSandbox } from './helpers/board';

const KEY = 'pro-key:board-errors';
const PERSIAN = /[\u0600-\u06FF]/;

/** A valid quote of usd, for answers the sandbox is told to send verbatim. */
const usdQuote = (): Quote => ({
  symbol: 'usd',
  title: 'دلار آمریکا',
  category: 'currency',
  unit: 'unit',
  price: '1000000',
  price_toman: '100000',
  change_pct: '0.5',
  high: '1010000',
  low: '990000',
  updated_at: new Date().toISOString(),
});

useSandbox();

describe('errors', () => {
  it('401: shows part=error data-code=unauthorized in Persian and fires price-board-error with status', async () => {
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    const statuses = collect<{ status: string }>(document, 'price-board-status');
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key="wrong-key" chart="none" symbols="usd,eur"></price-board>`,
    );
    await until(() => part(el, 'error')?.dataset.code === 'unauthorized', 'no unauthorized error shown');
    expect(part(el, 'error')!.textContent).toMatch(PERSIAN);
    expect(part(el, 'error')!.getAttribute('role')).toBe('alert');
    const detail = errors.find((e) => e.detail.code === 'unauthorized')!.detail;
    expect(detail).toEqual({ code: 'unauthorized', message: expect.stringMatching(PERSIAN), status: 401 });
    await until(() => el.status === 'error', 'status did not become error');
    expect(part(el, 'status')!.dataset.status).toBe('error');
    expect(statuses.map((e) => e.detail.status)).toContain('error');
    // never a blank box: the rows show dashes (never their ids), no endless skeleton
    expect(cell(el, 'usd', 'title')).toBe('—');
    expect(cell(el, 'usd', 'price')).toBe('—');
    expect(el.shadowRoot!.querySelectorAll('[part~="row"] .skeleton')).toHaveLength(0);
  });

  it('a malformed body: bad_response is shown while the rows keep the prices they had', async () => {
    const key = `${KEY}-malformed`;
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    await sandbox.market({ set: [{ symbol: 'usd', price: '1000000' }] });
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} stream="poll" chart="none" symbols="usd,eur"></price-board>`,
    );
    await untilLoaded(el);
    expect(cell(el, 'usd', 'price')).toBe('۱۰۰٬۰۰۰');
    await sandbox.faults([{ path: '/v1/prices', kind: 'malformed', key }]);
    await el.refresh();
    await until(() => part(el, 'error')?.dataset.code === 'bad_response', 'bad_response not shown');
    expect(part(el, 'error')!.textContent).toMatch(PERSIAN);
    expect(errors.map((e) => e.detail.code)).toContain('bad_response');
    expect(cell(el, 'usd', 'price')).toBe('۱۰۰٬۰۰۰');
    expect(row(el, 'usd')!.hasAttribute('data-missing')).toBe(false);
    expect(el.quotes.get('usd')?.price).toBe('1000000');
  });

  it('an unknown symbol: no row, no banner, the others load; unknown_symbol names it to the developer', async () => {
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,zzz"></price-board>`,
    );
    await until(() => errors.some((e) => e.detail.code === 'unknown_symbol'), 'unknown_symbol not fired');
    await untilLoaded(el);
    await elementUpdated(el);
    expect(row(el, 'zzz')).toBeNull();
    expect(/[۰-۹]/.test(cell(el, 'usd', 'price'))).toBe(true);
    const detail = errors.find((e) => e.detail.code === 'unknown_symbol')!.detail;
    expect(detail.symbols).toEqual(['zzz']);
    expect(detail.message).toMatch(PERSIAN);
    expect(part(el, 'error')).toBeNull();
  });

  it('renders a title from the service as text, never as HTML', async () => {
    const title = '<img src="x" onerror="window.__pwned = 1">دلار';
    const quote: Quote = { ...usdQuote(), title };
    const body = JSON.stringify({ data: { at: new Date().toISOString(), delay_seconds: 0, quotes: [quote] } });
    await sandbox.faults([{ path: '/v1/prices', kind: 'malformed', body, key: `${KEY}-html` }]);
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${`${KEY}-html`} stream="poll" chart="none" symbols="usd"></price-board>`,
    );
    await untilLoaded(el);
    expect(cell(el, 'usd', 'title')).toBe(title);
    expect(el.shadowRoot!.querySelector('img')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('shows delay_seconds in the status line', async () => {
    const quote = usdQuote();
    const body = JSON.stringify({ data: { at: new Date().toISOString(), delay_seconds: 60, quotes: [quote] } });
    await sandbox.faults([{ path: '/v1/prices', kind: 'malformed', body, key: `${KEY}-delay` }]);
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${`${KEY}-delay`} stream="poll" chart="none" symbols="usd"></price-board>`,
    );
    await untilLoaded(el);
    expect(part(el, 'status')!.textContent).toMatch(/با ۶۰ ثانیه تأخیر/);
  });
});
