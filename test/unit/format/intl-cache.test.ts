import { afterEach, describe, expect, it } from 'vitest';
import { formatJalaliDate, formatRelative, formatTime, formatUpdated } from '../../../src/format/date';
import { tehranParts } from '../../../src/format/tehran-parts';
import { tehranOffsetSeconds } from '../../../src/format/tehran-offset';
import { formatAxisNumber } from '../../../src/format/axis-number';
import { formatDecimal } from '../../../src/format/number';
import { formatPercent } from '../../../src/format/percent';

const originals = {
  DateTimeFormat: Intl.DateTimeFormat,
  NumberFormat: Intl.NumberFormat,
  RelativeTimeFormat: Intl.RelativeTimeFormat,
};
let made = 0;

/** Replaces the Intl constructors with subclasses that count how often they are built. */
function countConstructions(): void {
  const intl = Intl as unknown as Record<string, unknown>;
  for (const [name, Base] of Object.entries(originals)) {
    intl[name] = class extends (Base as new (...args: unknown[]) => object) {
      constructor(...args: unknown[]) {
        super(...args);
        made++;
      }
    };
  }
}

function useEveryFormatter(i: number): void {
  const d = new Date(Date.UTC(2026, 2, 20) + i * 3_600_000);
  const now = new Date(Date.UTC(2026, 2, 25));
  formatTime(d);
  formatJalaliDate(d);
  formatJalaliDate(d, 'long');
  formatUpdated(d, now);
  formatRelative(d, now);
  formatRelative(new Date(now.getTime() - 600_000), now);
  tehranParts(d);
  tehranOffsetSeconds(d);
  formatAxisNumber(i * 1.5, 2);
  formatAxisNumber(i, 0);
  formatDecimal(String(i));
  formatPercent('1.5');
}

afterEach(() => Object.assign(Intl, originals));

describe('Intl formatter cache', () => {
  it('builds no formatter after the first use, however many calls follow', () => {
    useEveryFormatter(0);
    countConstructions();
    made = 0;
    for (let i = 1; i < 500; i++) useEveryFormatter(i);
    expect(made).toBe(0);
  });
});
