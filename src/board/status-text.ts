/**
 * The status line's text, in Persian: the connection state, the poll period and any data delay.
 * With the board's extras (`board-extras.ts`): until they are there, the line says only that the
 * first prices are on their way (`LOADING_TEXT`); every other state comes from the live data
 * layer, loaded beside them.
 */
import type { ConnectionStatus } from '../shared/types';
import { toPersianDigits } from '../format/number';
import { LOADING_TEXT } from './templates';

const fa = (n: number): string => toPersianDigits(String(n));

const STATUS_TEXT: Readonly<Record<ConnectionStatus, string>> = {
  loading: LOADING_TEXT,
  live: 'زنده',
  polling: 'به‌روزرسانی دوره‌ای',
  reconnecting: 'در حال اتصال دوباره…',
  offline: 'بدون اتصال',
  error: 'خطا در دریافت قیمت‌ها',
};

/** The status line: the connection state in Persian, the poll period, and any data delay. */
export function statusText(
  status: ConnectionStatus,
  { stream, pollInterval, delaySeconds }: { stream: string; pollInterval: number; delaySeconds: number },
): string {
  let text = STATUS_TEXT[status];
  if (status === 'polling') {
    // stream="off": one answer, then only refresh(); the hub calls that idle state 'polling'.
    text = stream === 'off' ? 'بدون به‌روزرسانی خودکار' : `به‌روزرسانی هر ${fa(pollInterval)} ثانیه`;
  }
  return delaySeconds > 0 ? `${text} · با ${fa(delaySeconds)} ثانیه تأخیر` : text;
}
