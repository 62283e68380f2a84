/**
 * Dates and times as people in Iran read them: Tehran time (`Asia/Tehran`), the Persian (Jalali)
 * calendar and Persian digits, all through cached Intl formatters. Invalid dates throw Intl's
 * RangeError.
 */
import { dateTimeFormat, relativeTimeFormat } from './intl-cache';

/** Iran's time zone, in which every date and time here is read. */
export const TIME_ZONE = 'Asia/Tehran';

/** A moment in Tehran, Jalali calendar. `weekday`: 0 = Sunday … 6 = Saturday (as `Date#getDay`). */
export interface TehranParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/**
 * The date formatting of a row's time cell, handed over once its formatters are built (the first
 * costs tens of milliseconds of ICU set-up, so the board builds them after its first rows).
 */
export interface DateFormat {
  formatJalaliDate: typeof formatJalaliDate;
  formatTime: typeof formatTime;
  formatUpdated: typeof formatUpdated;
}

/** `"۱۴:۰۵"`: 24-hour Tehran time with Persian digits. */
export function formatTime(d: Date): string {
  return dateTimeFormat('fa-IR', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    d,
  );
}

/** The Jalali date in Tehran: `short` `"۱۴۰۵/۰۹/۰۱"` (default) or `long` `"۱ آذر ۱۴۰۵"`. */
export function formatJalaliDate(d: Date, style: 'short' | 'long' = 'short'): string {
  const options: Intl.DateTimeFormatOptions =
    style === 'long'
      ? { timeZone: TIME_ZONE, year: 'numeric', month: 'long', day: 'numeric' }
      : { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' };
  return dateTimeFormat('fa-IR', options).format(d);
}

/** The last `now` of {@link formatUpdated} and its short Jalali date (a render asks with one `now` per changed quote). */
let today: [at: number, date: string] | undefined;

/** When a quote last changed: the time if `d` is on the same Tehran day as `now`, else the short Jalali date. */
export function formatUpdated(d: Date, now: Date): string {
  const date = formatJalaliDate(d);
  if (today?.[0] !== +now) today = [+now, formatJalaliDate(now)];
  return date === today[1] ? formatTime(d) : date;
}

/**
 * Elapsed time in Persian: under a minute (or in the future: clock skew) `"همین حالا"`, then
 * `"۵ دقیقه پیش"`, `"۲ ساعت پیش"`, `"۳ روز پیش"`; from 30 days on, the long Jalali date.
 */
export function formatRelative(d: Date, now: Date): string {
  const seconds = Math.floor((now.getTime() - d.getTime()) / 1000);
  if (Number.isNaN(seconds)) throw new RangeError('Invalid time value');
  if (seconds < 60) return 'همین حالا';
  if (seconds >= 30 * 86_400) return formatJalaliDate(d, 'long');
  // numeric 'always': 24 hours ago is "۱ روز پیش", not the calendar word "دیروز".
  const rtf = relativeTimeFormat('fa', { numeric: 'always' });
  if (seconds < 3600) return rtf.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return rtf.format(-Math.floor(seconds / 3600), 'hour');
  return rtf.format(-Math.floor(seconds / 86_400), 'day');
}

/** Numeric Jalali date and time of `d` in Tehran. */
export function tehranParts(d: Date): TehranParts {
  const parts = dateTimeFormat('en-US-u-ca-persian-nu-latn', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
    weekday: 'short',
  }).formatToParts(d);
  const out: TehranParts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, weekday: 0 };
  for (const { type, value } of parts) {
    // The persian calendar's year may come with an era ("1405 AP"): parseInt stops at the digits.
    if (type === 'weekday') out.weekday = WEEKDAYS[value] ?? 0;
    else if (type === 'year' || type === 'month' || type === 'day' || type === 'minute')
      out[type] = parseInt(value, 10);
    else if (type === 'hour') out.hour = parseInt(value, 10) % 24;
  }
  return out;
}
