/**
 * The status line's text, in Persian: the connection state, the poll period and any data delay.
 * With the board's extras (`board-controllers.ts`): until they are there, the line says only that the
 * first prices are on their way (`LOADING_TEXT`); every other state comes from the live data
 * layer, loaded beside them. The relay's render and the board taking it over say the same here
 * (DESIGN.md §13): when the prices shown were read, until the stream is live.
 */
import type { DateFormat } from '../format/date';
import type { ConnectionStatus, Quote } from '../shared/types';
import { toPersianDigits } from '../format/number';
import { datesReady } from './dates';
import { LOADING_TEXT } from './templates';

/** Seconds in Persian (`2.5` → `۲٫۵`, with the Persian decimal separator). */
const fa = (n: number): string => toPersianDigits(String(n)).replace('.', '٫');

const STATUS_TEXT: Readonly<Record<ConnectionStatus, string>> = {
  loading: LOADING_TEXT,
  live: 'زنده',
  polling: 'به‌روزرسانی دوره‌ای',
  reconnecting: 'در حال اتصال دوباره…',
  offline: 'بدون اتصال',
  error: 'خطا در دریافت قیمت‌ها',
};

/**
 * The status line: the connection state in Persian, the poll period, and any data delay. While
 * the market is closed (`closedAt`: when the last shown quote changed, as text) a working
 * connection says «بازار بسته» and that time instead, never «زنده». While the prices shown are
 * the relay's render's (`heldAt`: when they were read, as text) it says so, as
 * the page without JavaScript does. While a failure is shown (`failing`) a working connection
 * says it is trying again: the line never contradicts the error.
 */
export function statusText(
  status: ConnectionStatus,
  {
    stream,
    pollInterval,
    delaySeconds,
    heldAt,
  }: { stream: string; pollInterval: number; delaySeconds: number; heldAt?: string },
  closedAt?: string,
  failing = false,
): string {
  let text = STATUS_TEXT[status];
  const working = status === 'live' || status === 'polling';
  // Beside a failure it is still trying past (a 429, no answer): never «زنده», a poll period or «در حال دریافت».
  if (failing && (working || status === 'loading')) text = STATUS_TEXT.reconnecting;
  else if (closedAt !== undefined && working) {
    text = closedAt ? `بازار بسته · آخرین تغییر ${closedAt}` : 'بازار بسته';
  } else if (heldAt && working) {
    text = heldText(heldAt);
  } else if (status === 'polling') {
    // stream="off": one answer, then only refresh(); the hub calls that idle state 'polling'.
    text = stream === 'off' ? 'بدون به‌روزرسانی خودکار' : `به‌روزرسانی هر ${fa(pollInterval)} ثانیه`;
  }
  return delaySeconds > 0 ? `${text} · با ${fa(delaySeconds)} ثانیه تأخیر` : text;
}

/** When the prices shown were read (`heldAt`, a {@link tehranMoment}): the relay's render's words. */
export const heldText = (heldAt: string): string => `قیمت‌های ${heldAt} به وقت تهران`;

/** When `at` was, in Tehran: its time, after its Jalali date when that is not `now`'s. */
export function tehranMoment(at: Date, now: Date, dates: DateFormat): string {
  const time = dates.formatTime(at);
  return dates.formatJalaliDate(at) === dates.formatJalaliDate(now)
    ? time
    : `${dates.formatJalaliDate(at, 'long')} ${time}`;
}

/**
 * The board's status line: `quotes`' status and delay, `s`'s stream settings; `closedSince` (epoch
 * ms, NaN when unreadable): the market is closed and the last shown quote changed then (its time
 * today, else its Jalali date and time, once the date formatters are prepared). While `quotes` are
 * `held` (the relay's render, not yet followed live) it says when they were read: the latest
 * change of `s.symbols`' quotes, which the render and the board taking it over both hold.
 */
export function statusLine(
  quotes: {
    readonly status: ConnectionStatus;
    readonly delaySeconds: number;
    readonly held: boolean;
    get(symbol: string): Quote | undefined;
  },
  s: { stream: string; pollInterval: number; symbols: readonly string[] },
  closedSince?: number,
  now = new Date(),
  failing = false,
): string {
  const dates = datesReady();
  const closedAt =
    closedSince === undefined
      ? undefined
      : dates && !Number.isNaN(closedSince)
        ? tehranMoment(new Date(closedSince), now, dates)
        : '';
  // The latest change of the quotes shown (an unreadable time counts as none).
  const readAt = quotes.held
    ? Math.max(0, ...s.symbols.map((id) => Date.parse(quotes.get(id)?.updated_at ?? '') || 0))
    : 0;
  return statusText(
    quotes.status,
    {
      stream: s.stream,
      pollInterval: s.pollInterval,
      delaySeconds: quotes.delaySeconds,
      heldAt: dates && readAt ? tehranMoment(new Date(readAt), now, dates) : undefined,
    },
    closedAt,
    failing,
  );
}
