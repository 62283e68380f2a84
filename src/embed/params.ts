/**
 * Settings of the iframe embed page (`embed.html`) from its URL. The loader (`embed.js`) forwards
 * a placeholder's `data-*` settings as they are, and this file decides what they mean.
 *
 * The loader takes only `EMBED_PARAMETERS` from here; it is built on its own (a classic script,
 * vite.config.ts), so that import is inlined and `embed.js` stays one file.
 *
 * The URL parameters carry the element's attribute names (`symbols`, `api-key`, ...), `key` as a
 * short alias of `api-key`, `transparent=1` and `max-height`. Values are passed through untouched: the element
 * validates them itself: a bad value falls back to the default, with the element's own `invalid_attribute` warning.
 */
import { BOARD_ATTRIBUTES, WIDGET_ATTRIBUTES } from '../shared/attribute-table';

/** Attributes of `<price-board>` an embed may set: all of its table (DESIGN.md section 2). */
const EMBED_ATTRIBUTES: readonly string[] = Object.values(BOARD_ATTRIBUTES).map((spec) => spec.attribute);

/** `widget=`: which element the page shows (DESIGN.md §8), and its tag. */
export const WIDGET_TAGS = { board: 'price-board', ticker: 'price-ticker', converter: 'price-converter' } as const;
export type EmbedWidget = keyof typeof WIDGET_TAGS;

/** Each widget's iframe title (Persian), for the loader's iframes and the demo's iframe code. */
export const WIDGET_TITLES: Readonly<Record<EmbedWidget, string>> = {
  board: 'تابلوی زندهٔ قیمت',
  ticker: 'نوار زندهٔ قیمت',
  converter: 'مبدل قیمت',
};

/**
 * Every element's attributes, for the loader's list (the board's first); the embed page itself
 * asks the element shown for its attributes (`observedAttributes`).
 */
const WIDGET_ATTRIBUTE_NAMES = [
  ...new Set(Object.values(WIDGET_ATTRIBUTES).flatMap((table) => Object.values(table).map((spec) => spec.attribute))),
];

/** The `widget` parameter: `board` (the default, also for an unknown value), `ticker` or `converter`. */
export function readWidget(search: string | URLSearchParams): EmbedWidget {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const value = params.get('widget')?.trim().toLowerCase() ?? '';
  return Object.hasOwn(WIDGET_TAGS, value) ? (value as EmbedWidget) : 'board';
}

/** Short parameter names accepted for an attribute. */
const ALIASES: Readonly<Record<string, string>> = { key: 'api-key' };

/**
 * The page's own parameters beside the attributes: `transparent=1`, and `max-height` (the board's
 * `--price-board-max-height`, a CSS variable a URL cannot set otherwise).
 */
const PAGE_PARAMETERS = ['transparent', 'max-height'];

/** Every parameter the embed page reads, and those holding an address: the loader's lists. */
export const EMBED_PARAMETERS = {
  names: ['widget', ...WIDGET_ATTRIBUTE_NAMES, ...Object.keys(ALIASES), ...PAGE_PARAMETERS],
  addresses: Object.values(BOARD_ATTRIBUTES)
    .filter((spec) => spec.kind === 'base-url' || spec.kind === 'url' || spec.kind === 'url-template')
    .map((spec) => spec.attribute),
};

/** Longest value we forward; a longer one is certainly not a setting (and keeps URLs sane). */
const MAX_VALUE_LENGTH = 2000;

export interface EmbedSettings {
  /** `[attribute, value]` pairs in the order of the allowed attributes. */
  attributes: Array<[string, string]>;
  /** `transparent=1`: no page background, the board blends into the embedding page. */
  transparent: boolean;
  /**
   * `max-height=300` (pixels) or a length (`20em`, `60vh`): the board's `--price-board-max-height`;
   * `null` when not given, `undefined` when not a length (then it is not applied).
   */
  maxHeight: string | null | undefined;
}

/** A number (pixels) or a number with a length unit, nothing else (the value goes into a style). */
function readLength(value: string | null): string | null | undefined {
  if (value === null || value.trim() === '') return null;
  const match = /^(\d+(?:\.\d+)?)(px|em|rem|vh|svh|lvh|dvh)?$/i.exec(value.trim());
  return match ? `${match[1]}${(match[2] ?? 'px').toLowerCase()}` : undefined;
}

/**
 * Maps a parameter name (or alias) to the attribute it sets, or `undefined` when unknown.
 * `allowed`: the attributes of the element shown (the board's by default).
 */
function attributeFor(name: string, allowed: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  if (allowed.includes(lower)) return lower;
  const alias = ALIASES[lower];
  return alias && allowed.includes(alias) ? alias : undefined;
}

/** `1`, `true`, `yes` and an empty value (`?transparent`) turn a flag on. */
export function isTruthyFlag(value: string | null | undefined): boolean {
  if (value == null) return false;
  return ['', '1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

/**
 * Reads the embed settings from a query string. Unknown parameters are ignored; when a setting
 * appears twice (or as both `key` and `api-key`) a value beats an empty one (`data-api-key=""` left
 * beside `data-key="..."`), then the full attribute name wins, then the first.
 */
export function readEmbedParams(
  search: string | URLSearchParams,
  allowed: readonly string[] = EMBED_ATTRIBUTES,
): EmbedSettings {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const found = new Map<string, { value: string; rank: number }>();
  for (const [name, value] of params) {
    const attribute = attributeFor(name, allowed);
    if (!attribute || value.length > MAX_VALUE_LENGTH) continue;
    const exact = name.toLowerCase() === attribute;
    const previous = found.get(attribute);
    const rank = (value.trim() === '' ? 0 : 2) + (exact ? 1 : 0);
    if (!previous || rank > previous.rank) found.set(attribute, { value, rank });
  }
  const attributes: Array<[string, string]> = [];
  for (const name of allowed) {
    const entry = found.get(name);
    if (entry) attributes.push([name, entry.value]);
  }
  return {
    attributes,
    transparent: isTruthyFlag(params.get('transparent')),
    maxHeight: readLength(params.get('max-height')),
  };
}
