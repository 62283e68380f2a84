import { clampWait } from '../shared/waits';

/**
 * `Retry-After` as milliseconds to wait: either delay-seconds (`"120"`) or an HTTP date
 * (`"Wed, 21 Oct 2015 07:28:00 GMT"`). Undefined when absent or unreadable; within [0, 1 h]
 * (`clampWait`): a longer wait is asked again after the hour.
 */
export function parseRetryAfter(header: string | null | undefined, now: number = Date.now()): number | undefined {
  if (header == null) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return clampWait(Math.round(Number(value) * 1000));
  // A bare number that is not delay-seconds (e.g. negative) is not a date either.
  if (/^[+-]?[\d.]+$/.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return clampWait(at - now);
}
