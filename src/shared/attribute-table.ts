/**
 * The public attributes, declared once: each entry's key is the property, and it holds the
 * attribute name, the kind of value (which says how it is validated: `widget/settings.ts`), the
 * default and whether it reflects. The JSDoc beside each entry is its documentation: the
 * manifest and the element pages' tables (docs/elements/) are generated from this file (`scripts/attribute-table.mjs`),
 * the element, the embed page and the loader derive their lists from it. Plain data, no DOM.
 *
 * `CONNECTION_ATTRIBUTES` are the ones every widget on the data layer takes; `BOARD_ATTRIBUTES`
 * adds the board's own. Another element declares `{ ...CONNECTION_ATTRIBUTES, ...its own }`.
 */
import type { DisplayUnit } from './types';
import { MAX_WAIT_MS } from './waits';

export type StreamMode = 'auto' | 'sse' | 'poll' | 'off';
export type ThemeMode = 'light' | 'dark' | 'auto';
export type ChartMode = 'candles' | 'line' | 'none';
/** History spans the board offers (1: today, intraday). */
export type HistoryDays = 1 | 7 | 30 | 365;
/** The cells a board row may show (DESIGN.md section 10). */
export type Column = 'price' | 'change' | 'change-amount' | 'high' | 'low' | 'time' | 'spark' | 'bubble';
export type Density = 'comfortable' | 'compact';

export const STREAM_MODES: readonly StreamMode[] = ['auto', 'sse', 'poll', 'off'];
const THEMES: readonly ThemeMode[] = ['light', 'dark', 'auto'];
const CHART_MODES: readonly ChartMode[] = ['candles', 'line', 'none'];
const UNITS: readonly DisplayUnit[] = ['toman', 'rial'];
/** The span buttons, shortest first; the plan fallback walks 365 → 30 → 7 backwards, and 1 falls back to 7. */
export const DAY_OPTIONS: readonly HistoryDays[] = [1, 7, 30, 365];
/** Every column a row may show, in the order the configurator lists them. */
export const COLUMNS: readonly Column[] = [
  'price',
  'change',
  'change-amount',
  'high',
  'low',
  'time',
  'spark',
  'bubble',
];
const DENSITIES: readonly Density[] = ['comfortable', 'compact'];

/** A well-formed symbol id (what the service uses; anything else is never sent). */
export const SYMBOL_ID = /^[a-z0-9_]+$/;
/** Polling faster than this (seconds) would eat the smallest plan's request budget. */
export const MIN_POLL_SECONDS = 5;
/** Polling slower than the longest wait (an hour) is refused: a longer timer would overflow. */
export const MAX_POLL_SECONDS = MAX_WAIT_MS / 1000;

/**
 * How a value is read: `symbols` a comma-separated id list; `key` a secret (never validated, so
 * never echoed); `base-url` an http(s) address without query or trailing slash; `url` an http(s)
 * address; neither with credentials (`user:password@`); `url-template` an address with
 * `{symbol}` that is http(s) once the symbol is put in; `choice` one of `values`; `list` a
 * comma-separated list of `values`, each once; `seconds` a number from `min` to `max`; `positive`
 * a number above 0; `symbol` one id of `symbols`; `text` any text (the element reads it); `flag` a
 * boolean attribute (present: on).
 */
export type AttributeKind =
  | 'symbols'
  | 'key'
  | 'base-url'
  | 'url'
  | 'url-template'
  | 'choice'
  | 'list'
  | 'seconds'
  | 'positive'
  | 'symbol'
  | 'text'
  | 'flag';

export interface AttributeSpec {
  /** The HTML attribute (and embed parameter) name. */
  readonly attribute: string;
  readonly kind: AttributeKind;
  /** For `choice` and `list`: the allowed values (numbers for a numeric attribute). */
  readonly values?: readonly (string | number)[];
  /** For `seconds`: the smallest value accepted. */
  readonly min?: number;
  /** For `seconds`: the largest value accepted. */
  readonly max?: number;
  /** The value when unset (or invalid); none: unset means "not given". */
  readonly default?: string | number | boolean;
  /** False: the property does not show in the attribute (the key). */
  readonly reflect?: false;
}

export const CONNECTION_ATTRIBUTES = {
  /** Comma-separated symbol ids, shown in this order; spaces and upper case tolerated, duplicates dropped. */
  symbols: { attribute: 'symbols', kind: 'symbols', default: 'usd,eur,gold_18,coin_emami,ons' },
  /** API key, sent only as the `X-API-Key` header (never in a URL, a log line or an event). Not reflected. */
  apiKey: { attribute: 'api-key', kind: 'key', reflect: false },
  /** Service address; `/v1/...` is appended. Default: the origin this module was loaded from. */
  baseUrl: { attribute: 'base-url', kind: 'base-url' },
  /** Live updates: `auto` (SSE, falling back to polling), `sse`, `poll` or `off`. */
  stream: { attribute: 'stream', kind: 'choice', values: STREAM_MODES, default: 'auto' },
  /** SSE address. Default `{base-url}/v1/stream`. */
  streamUrl: { attribute: 'stream-url', kind: 'url' },
  /** Seconds between polls when polling (5 to 3600); never faster than the plan allows. */
  pollInterval: {
    attribute: 'poll-interval',
    kind: 'seconds',
    min: MIN_POLL_SECONDS,
    max: MAX_POLL_SECONDS,
    default: 30,
  },
  /** `toman` or `rial`; `ons` and `silver_ounce` always show US dollars. */
  unit: { attribute: 'unit', kind: 'choice', values: UNITS, default: 'toman' },
  /** `light`, `dark` or `auto` (follows `prefers-color-scheme`, live). */
  theme: { attribute: 'theme', kind: 'choice', values: THEMES, default: 'auto' },
} as const satisfies Record<string, AttributeSpec>;

export const BOARD_ATTRIBUTES = {
  ...CONNECTION_ATTRIBUTES,
  /** `candles`, `line` or `none` (no chart: its code is not loaded). */
  chart: { attribute: 'chart', kind: 'choice', values: CHART_MODES, default: 'candles' },
  /** The symbol whose chart is shown. Default: the first symbol. Set when the user selects a row. */
  chartSymbol: { attribute: 'chart-symbol', kind: 'symbol' },
  /**
   * History span of the chart in days: 1 (today: the last 24 h in 5-minute candles, Tehran times on
   * the axis; a relay answers it from its own record), 7, 30 or 365. Falls back 365 → 30 → 7 when
   * the plan rejects a span, and 1 → 7 when the service does not give today's chart.
   */
  days: { attribute: 'days', kind: 'choice', values: DAY_OPTIONS, default: 30 },
  /**
   * The cells of a row, in order: `price`, `change`, `change-amount` (the change in the row's
   * unit), `high`, `low`, `time`, `spark` (the last 7 days), `bubble` (a coin's price over its
   * gold's, docs/coins.md). Each cell has the part of its name; an unknown name falls back to the default.
   */
  columns: { attribute: 'columns', kind: 'list', values: COLUMNS, default: 'price,change,high,low,time' },
  /** `comfortable`, or `compact`: a dense table for 20–40 symbols. */
  density: { attribute: 'density', kind: 'choice', values: DENSITIES, default: 'comfortable' },
  /**
   * A URL template with `{symbol}` (`https://example.com/price/{symbol}`): each title links to that
   * page (`rel="noopener"`; in an iframe, in the top window). Only http(s) addresses.
   */
  link: { attribute: 'link', kind: 'url-template' },
} as const satisfies Record<string, AttributeSpec>;

export const TICKER_ATTRIBUTES = {
  ...CONNECTION_ATTRIBUTES,
  /** Pixels per second the tape moves (a positive number; others fall back to the default). */
  speed: { attribute: 'speed', kind: 'positive', default: 40 },
} as const satisfies Record<string, AttributeSpec>;

export const CONVERTER_ATTRIBUTES = {
  ...CONNECTION_ATTRIBUTES,
  /** The symbol converted; one not in `symbols` falls back to the first. Set when the user picks one. */
  symbol: { attribute: 'symbol', kind: 'symbol' },
  /** The amount as typed (Persian, Arabic or Latin digits; `.` or `٫`). Follows the field. Not reflected. */
  amount: { attribute: 'amount', kind: 'text', default: '1', reflect: false },
  /** Converts toman (or rial) into the symbol instead of the symbol into toman. */
  reverse: { attribute: 'reverse', kind: 'flag', default: false },
} as const satisfies Record<string, AttributeSpec>;

/** Every element's table, by the `widget=` name of the embed page (DESIGN.md §8). */
export const WIDGET_ATTRIBUTES = {
  board: BOARD_ATTRIBUTES,
  ticker: TICKER_ATTRIBUTES,
  converter: CONVERTER_ATTRIBUTES,
} as const;

/** The value type of a property, from its spec. */
type ValueOf<S> = S extends { kind: 'list' }
  ? string
  : S extends { values: readonly (infer V)[] }
    ? V
    : S extends { kind: 'seconds' } | { kind: 'positive' }
      ? number
      : S extends { kind: 'flag' }
        ? boolean
        : S extends { default: string } | { kind: 'base-url' }
          ? string
          : string | undefined;

/** The properties an attribute table gives an element, e.g. `AttributeProperties<typeof BOARD_ATTRIBUTES>`. */
export type AttributeProperties<T> = { -readonly [K in keyof T]: ValueOf<T[K]> };

export type BoardProperty = keyof typeof BOARD_ATTRIBUTES;
export type BoardProperties = AttributeProperties<typeof BOARD_ATTRIBUTES>;

/** What a widget runs on for an entry, once read (`widget/settings.ts`): every value valid. */
type SettingOf<S> = S extends { kind: 'symbols' }
  ? string[]
  : S extends { kind: 'list'; values: readonly (infer V)[] }
    ? V[]
    : S extends { kind: 'key' } | { kind: 'url' } | { kind: 'url-template' }
      ? string | undefined
      : S extends { kind: 'base-url' } | { kind: 'symbol' }
        ? string
        : ValueOf<S>;

/**
 * The settings read from a table: `symbols` a list, a `symbol` always one of it, `stream-url` and
 * the key `undefined` when unset (the consumer's default), every other value its default when unset.
 */
export type SettingsOf<T> = { -readonly [K in keyof T]: SettingOf<T[K]> };
/** What every widget runs on: the connection attributes, read. */
export type WidgetSettings = SettingsOf<typeof CONNECTION_ATTRIBUTES>;
/** What the board runs on. */
export type BoardSettings = SettingsOf<typeof BOARD_ATTRIBUTES>;
