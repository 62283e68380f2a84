/**
 * The status line's text, in Persian: the connection state, the poll period and any data delay.
 * With the board's extras (`board-controllers.ts`): until they are there, the line says only that the
 * first prices are on their way (`LOADING_TEXT`); every other state comes from the live data
 * layer, loaded beside them.
 */
import type { ConnectionStatus } from '../shared/types';
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
 * connection says «بازار بسته» and that time instead, never «زنده». While a failure is shown
 * (`failing`) a working connection says it is trying again: the line never contradicts the error.
 */
export function statusText(
  status: ConnectionStatus,
  { stream, pollInterval, delaySeconds }: { stream: string; pollInterval: number; delaySeconds: number },
  closedAt?: string,
  failing = false,
): string {
  let text = STATUS_TEXT[status];
  const working = status === 'live' || status === 'polling';
  // Beside a failure it is still trying past (a 429, no answer): never «زنده», a poll period or «در حال دریافت».
  if (failing && (working || status === 'loading')) text = STATUS_TEXT.reconnecting;
  else if (closedAt !== undefined && working) {
    text = closedAt ? `بازار بسته · آخرین تغییر ${closedAt}` : 'بازار بسته';
  } else if (status === 'polling') {
    // stream="off": one answer, then only refresh(); the hub calls that idle state 'polling'.
    text = stream === 'off' ? 'بدون به‌روزرسانی خودکار' : `به‌روزرسانی هر ${fa(pollInterval)} ثانیه`;
  }
  return delaySeconds > 0 ? `${text} · با ${fa(delaySeconds)} ثانیه تأخیر` : text;
}

/**
 * The board's status line: `quotes`' status and delay, `s`'s stream settings; `closedSince` (epoch
 * ms, NaN when unreadable): the market is closed and the last shown quote changed then (its time
 * today, else its Jalali date and time, once the date formatters are prepared).
 */
export function statusLine(
  quotes: { readonly status: ConnectionStatus; readonly delaySeconds: number },
  s: { stream: string; pollInterval: number },
  closedSince?: number,
  now = new Date(),
  failing = false,
): string {
  let closedAt: string | undefined;
  const dates = datesReady();
  if (closedSince !== undefined) {
    const at = new Date(closedSince);
    closedAt =
      !dates || Number.isNaN(closedSince)
        ? ''
        : dates.formatJalaliDate(at) === dates.formatJalaliDate(now)
          ? dates.formatTime(at)
          : `${dates.formatJalaliDate(at, 'long')} ${dates.formatTime(at)}`;
  }
  return statusText(
    quotes.status,
    { stream: s.stream, pollInterval: s.pollInterval, delaySeconds: quotes.delaySeconds },
    closedAt,
    failing,
  );
}
