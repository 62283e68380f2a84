// What a site owner's visitors see (DESIGN.md section 9), unit by unit against the sandbox: the
// market-closed status with the date of the last change, and developer errors said once.
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { ERROR_MESSAGES } from '../../src/shared/error-messages';
import { base, part, sandbox, until, useSandbox } from './helpers/board';

const KEY = 'pro-key:board-host';

useSandbox();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('market state', () => {
  it('closed since yesterday: «بازار بسته» with the Jalali date and time of the last change', async () => {
    // Two days ago, 22:55 Tehran (19:25 UTC): the date is not today's, so it is named.
    const day = new Date(Date.now() - 2 * 86_400_000);
    const at = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 19, 25));
    await sandbox.market({ set: [{ symbol: 'coin_gerami', price: '1700000000', updated_at: at.toISOString() }] });
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${`${KEY}-closed`} chart="none" symbols="coin_gerami"></price-board>`,
    );
    const status = () => part(el, 'status')!;
    await until(
      () => status().dataset.market === 'closed' && /[۰-۹]/.test(status().textContent ?? ''),
      `status: ${status().dataset.market} ${status().textContent}`,
    );
    const date = new Intl.DateTimeFormat('fa-IR', {
      timeZone: 'Asia/Tehran',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    }).format(at);
    expect(status().textContent).toBe(`بازار بسته · آخرین تغییر ${date} ۲۲:۵۵`);
    await sandbox.market({ set: [{ symbol: 'coin_gerami', price: '1700000000' }] });
    await until(() => status().dataset.market === 'open', 'not open after a fresh quote');
  });
});

describe('developer errors', () => {
  it('ten boards with the same bad key: each shows the visitor words, the console gets one warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await sandbox.faults([
      {
        key: `${KEY}-bad`,
        kind: 'status',
        status: 403,
        body: JSON.stringify({ error: { code: 'forbidden', message: 'domain not allowed' } }),
      },
    ]);
    const wrapper = await fixture<HTMLElement>(
      html`<div>
        ${Array.from({ length: 10 }, () => html`<price-board base-url=${base()} api-key=${`${KEY}-bad`} chart="none" symbols="usd"></price-board>`)}
      </div>`,
    );
    const boards = [...wrapper.querySelectorAll<PriceBoard>('price-board')];
    await until(
      () => boards.every((b) => part(b, 'error')?.dataset.code === 'forbidden'),
      'not every board shows forbidden',
    );
    for (const b of boards) expect(part(b, 'error')!.textContent).toBe(ERROR_MESSAGES.visitor);
    const forbidden = warn.mock.calls.filter((args) => String(args[0]).includes('forbidden'));
    expect(forbidden).toHaveLength(1);
    expect(forbidden[0]!.join(' ')).toContain('403');
    expect(forbidden[0]!.join(' ')).toContain(ERROR_MESSAGES.forbidden);
    await sandbox.clearFaults();
  });
});
