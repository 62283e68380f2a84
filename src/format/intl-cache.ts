/**
 * Intl formatters are expensive to build (ICU data lookups) and cheap to reuse, so each distinct
 * (locale, options) pair is built once and kept for the life of the module.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const relativeTimeFormats = new Map<string, Intl.RelativeTimeFormat>();

function cached<F, O>(cache: Map<string, F>, make: (locale: string, options: O) => F, locale: string, options: O): F {
  const key = `${locale}|${JSON.stringify(options)}`;
  let formatter = cache.get(key);
  if (formatter === undefined) {
    formatter = make(locale, options);
    cache.set(key, formatter);
  }
  return formatter;
}

/** A shared `Intl.NumberFormat` for these arguments. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return cached(numberFormats, (l, o) => new Intl.NumberFormat(l, o), locale, options);
}

/** A shared `Intl.DateTimeFormat` for these arguments. */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return cached(dateTimeFormats, (l, o) => new Intl.DateTimeFormat(l, o), locale, options);
}

/** A shared `Intl.RelativeTimeFormat` for these arguments. */
export function relativeTimeFormat(
  locale: string,
  options: Intl.RelativeTimeFormatOptions = {},
): Intl.RelativeTimeFormat {
  return cached(relativeTimeFormats, (l, o) => new Intl.RelativeTimeFormat(l, o), locale, options);
}
