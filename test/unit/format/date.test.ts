import { describe, expect, it, vi } from 'vitest';
import { formatJalaliDate, formatRelative, formatTime, formatUpdated } from '../../../src/format/date';
import { tehranParts } from '../../../src/format/tehran-parts';
import { tehranOffsetSeconds } from '../../../src/format/tehran-offset';

const LATIN_DIGIT = /[0-9]/;
// 20:30Z is Tehran midnight (+03:30); this one is also Nowruz: 1405/01/01.
const BEFORE_MIDNIGHT = new Date('2026-03-20T20:29:59Z');
const MIDNIGHT = new Date('2026-03-20T20:30:00Z');

describe('tehranParts', () => {
  it('gives the Jalali date and Tehran time as numbers', () => {
    expect(tehranParts(new Date('2026-11-22T10:35:00Z'))).toEqual({
      year: 1405,
      month: 9,
      day: 1,
      hour: 14,
      minute: 5,
      weekday: 0,
    });
  });

  it('turns the Jalali year at Nowruz, at Tehran midnight', () => {
    expect(tehranParts(BEFORE_MIDNIGHT)).toEqual({ year: 1404, month: 12, day: 29, hour: 23, minute: 59, weekday: 5 });
    expect(tehranParts(MIDNIGHT)).toEqual({ year: 1405, month: 1, day: 1, hour: 0, minute: 0, weekday: 6 });
  });

  it('agrees with Intl on Nowruz 1405 being 21 March 2026 in Tehran', () => {
    const gregorian = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tehran' }).format(MIDNIGHT);
    const persian = new Intl.DateTimeFormat('en-US-u-ca-persian-nu-latn', {
      timeZone: 'Asia/Tehran',
      dateStyle: 'short',
    });
    expect(gregorian).toBe('2026-03-21');
    expect(persian.format(MIDNIGHT)).toMatch(/^1\/1\/1405/);
  });

  it('reads the year without the era Intl may attach to it', () => {
    for (let i = 0; i < 12; i++) {
      const p = tehranParts(new Date(Date.UTC(2026, i, 15)));
      expect(p.year === 1404 || p.year === 1405).toBe(true);
      expect(Number.isInteger(p.year) && Number.isInteger(p.month) && Number.isInteger(p.day)).toBe(true);
    }
  });

  it('never reports hour 24 at midnight', () => {
    expect(tehranParts(MIDNIGHT).hour).toBe(0);
  });
});

describe('tehranOffsetSeconds', () => {
  it('is +03:30 today', () => {
    expect(tehranOffsetSeconds(MIDNIGHT)).toBe(12_600);
    expect(tehranOffsetSeconds(new Date('2026-07-01T00:00:00Z'))).toBe(12_600);
  });

  it('follows the old summer time (Iran dropped DST in 2022)', () => {
    expect(tehranOffsetSeconds(new Date('2020-07-01T00:00:00Z'))).toBe(16_200);
    expect(tehranOffsetSeconds(new Date('2020-01-01T00:00:00Z'))).toBe(12_600);
  });
});

describe('formatTime', () => {
  it('shows 24-hour Tehran time with Persian digits', () => {
    expect(formatTime(new Date('2026-11-22T10:35:00Z'))).toBe('۱۴:۰۵');
    expect(formatTime(MIDNIGHT)).toBe('۰۰:۰۰');
    expect(formatTime(BEFORE_MIDNIGHT)).toBe('۲۳:۵۹');
    expect(formatTime(new Date('2026-11-22T16:00:00Z'))).toBe('۱۹:۳۰');
  });
});

describe('formatJalaliDate', () => {
  it('shows the short Jalali date in Tehran', () => {
    expect(formatJalaliDate(new Date('2026-11-22T10:00:00Z'))).toBe('۱۴۰۵/۰۹/۰۱');
    expect(formatJalaliDate(MIDNIGHT, 'short')).toBe('۱۴۰۵/۰۱/۰۱');
    expect(formatJalaliDate(BEFORE_MIDNIGHT, 'short')).toBe('۱۴۰۴/۱۲/۲۹');
  });

  it('shows the long Jalali date with the month name', () => {
    expect(formatJalaliDate(new Date('2026-11-22T10:00:00Z'), 'long')).toBe('۱ آذر ۱۴۰۵');
    expect(formatJalaliDate(MIDNIGHT, 'long')).toBe('۱ فروردین ۱۴۰۵');
  });
});

describe('formatUpdated', () => {
  it('shows the time for an update earlier the same Tehran day', () => {
    expect(formatUpdated(MIDNIGHT, new Date('2026-03-21T10:00:00Z'))).toBe('۰۰:۰۰');
  });

  it('shows the date for an update one second before Tehran midnight', () => {
    expect(formatUpdated(BEFORE_MIDNIGHT, MIDNIGHT)).toBe('۱۴۰۴/۱۲/۲۹');
  });

  it('goes by the Tehran day, not the UTC day', () => {
    // Same UTC day (20 March), different Tehran days.
    expect(formatUpdated(new Date('2026-03-20T10:00:00Z'), new Date('2026-03-20T21:00:00Z'))).toBe('۱۴۰۴/۱۲/۲۹');
    // Different UTC days, same Tehran day (1 Farvardin).
    expect(formatUpdated(new Date('2026-03-20T21:00:00Z'), new Date('2026-03-21T19:00:00Z'))).toBe('۰۰:۳۰');
  });

  it('keeps to the Tehran day at both ends while now moves through it and into the next', () => {
    const now = (iso: string) => new Date(iso);
    // 1 Farvardin 1405: from 2026-03-20T20:30Z to 2026-03-21T20:30Z.
    expect(formatUpdated(MIDNIGHT, now('2026-03-21T01:00:00Z'))).toBe('۰۰:۰۰');
    expect(formatUpdated(BEFORE_MIDNIGHT, now('2026-03-21T02:00:00Z'))).toBe('۱۴۰۴/۱۲/۲۹');
    expect(formatUpdated(new Date('2026-03-21T20:29:59.999Z'), now('2026-03-21T20:29:59.999Z'))).toBe('۲۳:۵۹');
    expect(formatUpdated(new Date('2026-03-21T20:30:00Z'), now('2026-03-21T20:00:00Z'))).toBe('۱۴۰۵/۰۱/۰۲');
    // Now on 2 Farvardin: yesterday's last minute is a date, today's first a time.
    expect(formatUpdated(new Date('2026-03-21T20:29:59Z'), now('2026-03-21T20:30:00Z'))).toBe('۱۴۰۵/۰۱/۰۱');
    expect(formatUpdated(new Date('2026-03-21T20:30:00Z'), now('2026-03-22T08:00:00Z'))).toBe('۰۰:۰۰');
  });

  it('keeps to the Tehran day on the days summer time began (23 hours) and ended (25 hours)', () => {
    // 2 Farvardin 1400 began at 01:00 (+04:30): 2021-03-21T20:30Z to 2021-03-22T19:30Z.
    expect(formatUpdated(new Date('2021-03-22T19:29:00Z'), new Date('2021-03-22T10:00:00Z'))).toBe('۲۳:۵۹');
    expect(formatUpdated(new Date('2021-03-22T19:30:00Z'), new Date('2021-03-22T11:00:00Z'))).toBe('۱۴۰۰/۰۱/۰۳');
    // 30 Shahrivar 1400 ran 23:00 to 24:00 twice: 2021-09-20T19:30Z to 2021-09-21T20:30Z.
    expect(formatUpdated(new Date('2021-09-21T20:00:00Z'), new Date('2021-09-21T12:00:00Z'))).toBe('۲۳:۳۰');
    expect(formatUpdated(new Date('2021-09-20T19:29:00Z'), new Date('2021-09-21T13:00:00Z'))).toBe('۱۴۰۰/۰۶/۲۹');
  });

  it('formats now’s date once for all the quotes of a render, and takes no date apart', () => {
    const now = Date.parse('2026-05-10T08:00:00Z');
    formatUpdated(new Date(now), new Date(now)); // the formatters built
    const parts = vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts');
    // `format` is a getter (of a bound function): each format() reads it once.
    const format = vi.spyOn(Intl.DateTimeFormat.prototype as { readonly format: unknown }, 'format', 'get');
    try {
      // 100 changed quotes of one render (one now, a new Date for each quote as a row makes it).
      for (let i = 1; i <= 100; i++)
        expect(formatUpdated(new Date(now - i * 60_000), new Date(now))).toMatch(/^[۰-۹]{2}:[۰-۹]{2}$/);
      expect(parts).not.toHaveBeenCalled();
      // Each quote's date and time: now's date was formatted by the first call already.
      expect(format.mock.calls.length).toBe(200);
    } finally {
      parts.mockRestore();
      format.mockRestore();
    }
  });
});

describe('formatRelative', () => {
  const now = new Date('2026-03-21T12:00:00Z');
  const ago = (s: number) => new Date(now.getTime() - s * 1000);

  it('says "just now" under a minute and for a time in the future', () => {
    expect(formatRelative(ago(0), now)).toBe('همین حالا');
    expect(formatRelative(ago(59), now)).toBe('همین حالا');
    expect(formatRelative(ago(-120), now)).toBe('همین حالا');
  });

  it('counts minutes, hours and days', () => {
    expect(formatRelative(ago(60), now)).toBe('۱ دقیقه پیش');
    expect(formatRelative(ago(5 * 60 + 30), now)).toBe('۵ دقیقه پیش');
    expect(formatRelative(ago(2 * 3600 + 59 * 60), now)).toBe('۲ ساعت پیش');
    expect(formatRelative(ago(86_400), now)).toBe('۱ روز پیش');
    expect(formatRelative(ago(3 * 86_400 + 100), now)).toBe('۳ روز پیش');
  });

  it('gives the Jalali date from 30 days on', () => {
    expect(formatRelative(new Date('2026-01-01T12:00:00Z'), now)).toBe('۱۱ دی ۱۴۰۴');
  });
});

describe('Latin digits', () => {
  it('never appear in any date output', () => {
    const now = new Date('2026-03-21T12:00:00Z');
    for (let i = 0; i < 48; i++) {
      const d = new Date(now.getTime() - i * 7_777_777);
      for (const s of [
        formatTime(d),
        formatJalaliDate(d),
        formatJalaliDate(d, 'long'),
        formatUpdated(d, now),
        formatRelative(d, now),
      ]) {
        expect(s).not.toMatch(LATIN_DIGIT);
      }
    }
  });
});
