/**
 * Reading the attributes of `shared/attribute-table.ts` into the settings an element runs on. Every
 * value is tolerated: an invalid one falls back to its default and is reported
 * (`invalid_attribute`), so a typo never leaves a broken box on the page.
 */
import { trimBaseUrl } from '../api/urls';
import { CONNECTION_ATTRIBUTES, SYMBOL_ID, type AttributeSpec, type SettingsOf } from '../shared/attribute-table';

/** Lit's `static properties` for an attribute table. */
export function litProperties(
  table: Record<string, AttributeSpec>,
): Record<string, { attribute: string; reflect: boolean; type?: NumberConstructor | BooleanConstructor }> {
  const out: Record<string, { attribute: string; reflect: boolean; type?: NumberConstructor | BooleanConstructor }> =
    {};
  for (const [property, spec] of Object.entries(table)) {
    const type = typeof spec.default === 'number' ? Number : spec.kind === 'flag' ? Boolean : undefined;
    out[property] = { attribute: spec.attribute, reflect: spec.reflect ?? true, ...(type ? { type } : {}) };
  }
  return out;
}

/** The default of each property of a table that has one. */
export function defaultsOf(table: Record<string, AttributeSpec>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [property, spec] of Object.entries(table)) if (spec.default !== undefined) out[property] = spec.default;
  return out;
}

interface Parsed<T> {
  value: T;
  invalid: boolean;
}

const ok = <T>(value: T): Parsed<T> => ({ value, invalid: false });
const bad = <T>(value: T): Parsed<T> => ({ value, invalid: true });
const isUnset = (raw: unknown): raw is null | undefined => raw === null || raw === undefined;
const isBlank = (raw: unknown): boolean => isUnset(raw) || String(raw).trim() === '';
const DEFAULT_SYMBOLS = CONNECTION_ATTRIBUTES.symbols.default.split(',');

/**
 * A `symbols` value's pieces: the ids (trimmed, lower-cased, order kept, duplicates and empty
 * pieces dropped) and the pieces that are no id (trimmed), which the element leaves out.
 */
export function splitSymbols(text: string): { ids: string[]; rejected: string[] } {
  const ids = new Set<string>();
  const rejected: string[] = [];
  for (const piece of text.split(',')) {
    const id = piece.trim().toLowerCase();
    if (id === '') continue;
    if (SYMBOL_ID.test(id)) ids.add(id);
    else rejected.push(piece.trim());
  }
  return { ids: [...ids], rejected };
}

/** Comma-separated ids ({@link splitSymbols}); none at all: the default symbols. */
function parseSymbols(raw: unknown): Parsed<string[]> {
  if (isUnset(raw)) return ok(DEFAULT_SYMBOLS);
  const { ids, rejected } = splitSymbols(Array.isArray(raw) ? raw.join(',') : String(raw));
  if (ids.length === 0) return bad(DEFAULT_SYMBOLS);
  return { value: ids, invalid: rejected.length > 0 };
}

/** A number from a number or its text; `NaN` for anything else. */
const toNumber = (raw: unknown): number => (typeof raw === 'number' ? raw : Number(String(raw).trim() || NaN));

/** One of `spec.values`, case and surrounding spaces tolerated (numbers compared as numbers). */
function parseChoice(raw: unknown, spec: AttributeSpec): Parsed<unknown> {
  const fallback = spec.default;
  if (isUnset(raw)) return ok(fallback);
  const value = typeof fallback === 'number' ? toNumber(raw) : String(raw).trim().toLowerCase();
  return spec.values!.includes(value) ? ok(value) : bad(fallback);
}

/** Comma-separated names of `spec.values`, each once, order kept; one unknown name: the default. */
function parseList(raw: unknown, spec: AttributeSpec): Parsed<string[]> {
  const fallback = String(spec.default).split(',');
  if (isBlank(raw)) return ok(fallback);
  const names = String(raw)
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  return names.every((name) => spec.values!.includes(name)) ? ok([...new Set(names)]) : bad(fallback);
}

/** Seconds, or any positive number (the ticker's `speed`): a finite number from `spec.min` (else above 0) to `spec.max`. */
function parseSeconds(raw: unknown, spec: AttributeSpec): Parsed<unknown> {
  if (isUnset(raw)) return ok(spec.default);
  const n = toNumber(raw);
  return Number.isFinite(n) && n >= (spec.min ?? Number.MIN_VALUE) && n <= (spec.max ?? Infinity)
    ? ok(n)
    : bad(spec.default);
}

/**
 * An http(s) address without credentials: `fetch` refuses a URL with `user:password@` (the board
 * then never made a request and said nothing), and a secret does not belong in an attribute.
 */
function toHttpUrl(raw: string): URL | undefined {
  try {
    const url = new URL(raw, globalThis.document?.baseURI);
    if (url.username !== '' || url.password !== '') return undefined;
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The service address, resolved against the page (a relative `/prices` works), without query,
 * fragment or trailing slash: the client appends `/v1/...`.
 */
function parseBaseUrl(raw: unknown, fallback: string): Parsed<string> {
  if (isBlank(raw)) return ok(fallback);
  const url = toHttpUrl(String(raw).trim());
  if (!url) return bad(fallback);
  return ok(trimBaseUrl(`${url.origin}${url.pathname}`));
}

/** An address resolved against the page; unset → `undefined` (the consumer's default). */
function parseUrl(raw: unknown): Parsed<string | undefined> {
  if (isBlank(raw)) return ok(undefined);
  const url = toHttpUrl(String(raw).trim());
  return url ? ok(url.href) : bad(undefined);
}

/**
 * The address a link template gives for `symbol` (URL-encoded into `{symbol}`), resolved against
 * the page; `undefined` unless it is http(s) without credentials. Checked for each symbol: the
 * symbol may stand where the scheme goes.
 */
export function linkFor(template: string, symbol: string): string | undefined {
  return toHttpUrl(template.replaceAll('{symbol}', encodeURIComponent(symbol)))?.href;
}

/** A link template: `{symbol}` in it, an http(s) address with a symbol put in. */
function parseUrlTemplate(raw: unknown): Parsed<string | undefined> {
  if (isBlank(raw)) return ok(undefined);
  const template = String(raw).trim();
  return template.includes('{symbol}') && linkFor(template, 'usd') ? ok(template) : bad(undefined);
}

/** The key is sent as a header only; it is never validated here, so it never lands in a message. */
function parseKey(raw: unknown): Parsed<string | undefined> {
  return ok(isBlank(raw) ? undefined : String(raw).trim());
}

/** The chart symbol: a well-formed id; one not on the board falls back to the first symbol. */
function parseChartSymbol(raw: unknown, symbols: readonly string[]): Parsed<string> {
  const first = symbols[0] ?? DEFAULT_SYMBOLS[0]!;
  if (isBlank(raw)) return ok(first);
  const id = String(raw).trim().toLowerCase();
  return SYMBOL_ID.test(id) && symbols.includes(id) ? ok(id) : bad(first);
}

/** Reads one attribute by its kind (`symbol` needs the symbols read first). */
function parse(
  spec: AttributeSpec,
  raw: unknown,
  context: { baseUrl: string; symbols: readonly string[] },
): Parsed<unknown> {
  switch (spec.kind) {
    case 'symbols':
      return parseSymbols(raw);
    case 'key':
      return parseKey(raw);
    case 'base-url':
      return parseBaseUrl(raw, context.baseUrl);
    case 'url':
      return parseUrl(raw);
    case 'url-template':
      return parseUrlTemplate(raw);
    case 'choice':
      return parseChoice(raw, spec);
    case 'list':
      return parseList(raw, spec);
    case 'seconds':
    case 'positive':
      return parseSeconds(raw, spec);
    case 'symbol':
      return parseChartSymbol(raw, context.symbols);
    default:
      // `text`, `flag`: the converter's own, any value.
      return ok(isUnset(raw) ? spec.default : raw);
  }
}

/** The result of {@link readSettings}: the settings and the attributes that fell back to defaults. */
export interface SettingsRead<S> {
  settings: S;
  /** Attribute names (`poll-interval`, ...) whose value was invalid, each reported once per change. */
  invalid: string[];
}

/**
 * Reads the attributes of `table` from `attrs` (the element): those that changed (all of them when
 * there are no previous settings), keeping the rest from `previous`, so an invalid value is
 * reported once, when it is set, not on every update. A `symbol` (one of the list) is always read
 * again (the symbols may have changed): one that drops out of the list follows the first symbol
 * quietly; one set explicitly to a symbol not in the list is reported.
 */
export function readSettings<T extends Record<string, AttributeSpec>>(
  table: T,
  attrs: Readonly<Record<string, unknown>>,
  defaultBaseUrl: string,
  previous?: Readonly<Record<string, unknown>>,
  changed?: { has(key: PropertyKey): boolean },
): SettingsRead<SettingsOf<T>> {
  const invalid: string[] = [];
  const settings: Record<string, unknown> = { ...previous };
  const context = { baseUrl: defaultBaseUrl, symbols: (settings.symbols as string[] | undefined) ?? DEFAULT_SYMBOLS };
  for (const [key, spec] of Object.entries(table)) {
    const has = !previous || !changed || changed.has(key);
    if (!has && spec.kind !== 'symbol') continue;
    const parsed = parse(spec, attrs[key], context);
    settings[key] = parsed.value;
    if (spec.kind === 'symbols') context.symbols = parsed.value as string[];
    if (parsed.invalid && has) invalid.push(spec.attribute);
  }
  return { settings: settings as SettingsOf<T>, invalid };
}

/** The Persian message of an `invalid_attribute` error: names the attribute, never echoes its value. */
export function invalidAttributeMessage(attribute: string): string {
  return `مقدار ویژگی «${attribute}» نامعتبر است؛ مقدار پیش‌فرض به کار رفت.`;
}
