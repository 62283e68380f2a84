/**
 * A fragment's query, read as the element reads its attributes (DESIGN.md §9, §13): with the
 * element's own parser (`widget/settings.ts`), so the fragment renders what the client would for the
 * same attribute values. An invalid value is rendered as the element reads it (its default, or for
 * `symbols` the ids it keeps) and named to the developer, never shown to visitors.
 */
import { readSettings, splitSymbols, type AttributeSpec } from './from-widgets';

/** Longest value read from the query (as the embed page's); a longer one is not a setting. */
const MAX_VALUE_LENGTH = 2000;

/** The query, read against a widget's table. */
export interface FragmentQuery {
  /**
   * `[attribute, value]` in the table's order, each value as the element reads it and none equal
   * to its default: what the element is rendered with, and the render cache's key, so queries the
   * element reads alike are one entry.
   */
  attributes: Array<[string, string]>;
  /** The symbols asked, as the element reads them. */
  symbols: string[];
  /** The query's settings as the element reads them (`widget/settings.ts`). */
  settings: Record<string, unknown>;
  /** Attribute names whose value is invalid or too long to read (never their values), in the table's order. */
  invalid: string[];
  /** The pieces of `symbols` that are no symbol id (the element leaves them out), as written. */
  rejectedSymbols: string[];
}

/** A setting as attribute text: a list joined by commas, a number in its shortest form. */
function attributeText(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * The query's attributes of `table`, validated and normalized as the element reads them. The key
 * and the service address are never taken: the relay holds the key, and the element's address is
 * the relay that served its script. A value over {@link MAX_VALUE_LENGTH} is not read: the
 * attribute is left at its default and named invalid.
 */
export function readQuery(table: Readonly<Record<string, AttributeSpec>>, params: URLSearchParams): FragmentQuery {
  const byProperty: Record<string, string> = {};
  const tooLong = new Set<string>();
  for (const [property, spec] of Object.entries(table)) {
    if (spec.kind === 'key' || spec.kind === 'base-url') continue;
    const value = params.get(spec.attribute);
    if (value === null) continue;
    if (value.length > MAX_VALUE_LENGTH) tooLong.add(spec.attribute);
    else byProperty[property] = value;
  }
  const read = readSettings(table, byProperty, '');
  const settings = read.settings as Record<string, unknown>;
  const symbols = settings.symbols as string[];
  const attributes: Array<[string, string]> = [];
  for (const [property, spec] of Object.entries(table)) {
    if (!(property in byProperty)) continue;
    // A flag is its presence, whatever its value.
    if (spec.kind === 'flag') {
      attributes.push([spec.attribute, '']);
      continue;
    }
    // The value the element runs on, an invalid one's included (its default, or the ids it kept).
    const value = settings[property];
    // The chart symbol's default is the first symbol.
    const fallback = spec.kind === 'symbol' ? symbols[0] : spec.default;
    if (value === undefined || (fallback !== undefined && attributeText(value) === attributeText(fallback))) continue;
    attributes.push([spec.attribute, attributeText(value)]);
  }
  const invalid = Object.values(table)
    .map((spec) => spec.attribute)
    .filter((attribute) => tooLong.has(attribute) || read.invalid.includes(attribute));
  const rejectedSymbols = byProperty.symbols === undefined ? [] : splitSymbols(byProperty.symbols).rejected;
  return { attributes, symbols, settings, invalid, rejectedSymbols };
}

/** At most this many rejected pieces are named, each cut to this many characters. */
const NAMED_PIECES = 10;
const NAMED_PIECE_CHARS = 30;

/**
 * Rejected `symbols` pieces as one header value: each percent-encoded (a Persian piece, a space:
 * printable ASCII, never a line break), comma-separated, the first {@link NAMED_PIECES} only.
 */
export function namedPieces(pieces: readonly string[]): string {
  return pieces
    .slice(0, NAMED_PIECES)
    .map((piece) => {
      const cut = [...piece].slice(0, NAMED_PIECE_CHARS).join('');
      try {
        return encodeURIComponent(cut);
      } catch {
        return '%EF%BF%BD'; // a lone surrogate: U+FFFD, as a URL decoder reads it
      }
    })
    .join(',');
}
