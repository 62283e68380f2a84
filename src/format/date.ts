/**
 * Dates and times as people in Iran read them: Tehran time (`Asia/Tehran`), the Persian (Jalali)
 * calendar and Persian digits, all through cached Intl formatters. Invalid dates throw Intl's
 * RangeError.
 */
import { dateTimeFormat, relativeTimeFormat } from './intl-cache';

/** Iran's time zone, in which every date and time here is read. */
export const TIME_ZONE = 'Asia/Tehran';

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
