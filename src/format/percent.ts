import { isZero, parseDecimal, roundDecimal } from './decimal';
import { formatDecimal } from './number';

const PERCENT = '\u066A';

/**
 * A signed Persian percent from the service's `change_pct` string, exact (no float), always with
 * two fraction digits (padded, or rounded half-up): `"1.23"` → `"‎+۱٫۲۳٪"`, `"-0.54"` →
 * `"‎−۰٫۵۴٪"`, `"1.2"` → `"‎+۱٫۲۰٪"`. Zero, and anything that rounds to zero, is `"۰٪"` with
 * no sign. The LRM lead keeps the sign left of the digits inside RTL text, as Intl's fa-IR
 * percent does. Throws `bad_response` on a non-decimal string.
 */
export function formatPercent(changePct: string): string {
  if (isZero(roundDecimal(parseDecimal(changePct), 2))) return `۰${PERCENT}`;
  return `${formatDecimal(changePct, { minFractionDigits: 2, maxFractionDigits: 2, signDisplay: 'exceptZero' })}${PERCENT}`;
}
