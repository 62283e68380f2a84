/**
 * When a ticker's or converter's rendered prices were read, for a page read without scripts
 * (DESIGN.md §13: without JavaScript the prices stay readable, with the time they were read). The
 * board says it in its status line; these two have none, so their fragment says it after the
 * element, in a `<noscript>`: a page that runs scripts never shows it, and nothing moves when the
 * element takes over. The words are the board's (`heldText`).
 */
import type { Quote } from '../from-src';
import { formatJalaliDate, formatTime, formatUpdated, heldText, tehranMoment } from './from-widgets';
import { escapeAttribute } from './renderer';

/** The note for `quotes` of `symbols` (the latest change among them), read at `now`; '' when none has a time. */
export function readNote(quotes: readonly Quote[], symbols: readonly string[], now = new Date()): string {
  const times = quotes.filter((q) => symbols.includes(q.symbol)).map((q) => Date.parse(q.updated_at) || 0);
  const readAt = Math.max(0, ...times);
  if (readAt === 0) return '';
  const text = heldText(tehranMoment(new Date(readAt), now, { formatJalaliDate, formatTime, formatUpdated }));
  return `<noscript><span lang="fa" dir="rtl">${escapeAttribute(text)}</span></noscript>`;
}
