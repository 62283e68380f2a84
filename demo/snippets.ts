/**
 * The embed code the demo shows: a script tag, a plain iframe and the loader placeholder, for one
 * configuration of a board, a ticker or a converter. Pure string building; attribute values are
 * HTML-escaped, URL parameters encoded.
 */
import { WIDGET_TAGS, WIDGET_TITLES, type EmbedWidget } from '../src/embed/params';
import { firstPricesUrl } from '../src/live/connection';
import { WIDGET_ATTRIBUTES, type AttributeSpec } from '../src/shared/attribute-table';

/**
 * A widget configuration, by property name (the keys of the attribute table). Empty strings mean
 * "not set". Each element takes the settings its table (`WIDGET_ATTRIBUTES`) has.
 */
export interface BoardConfig {
  /** Which element: `board`, `ticker` or `converter`. */
  widget: EmbedWidget;
  symbols: string[];
  apiKey: string;
  baseUrl: string;
  theme: string;
  unit: string;
  chart: string;
  chartSymbol: string;
  days: string;
  /** The board's cells, comma-separated (`columns`). */
  columns: string;
  density: string;
  link: string;
  /** Pixels, or empty: the board's `--price-board-max-height` (`max-height` in the embed URL). */
  maxHeight: string;
  stream: string;
  pollInterval: string;
  /** The ticker's. */
  speed: string;
  /** The converter's. */
  symbol: string;
  amount: string;
}

/** The settings a configuration holds besides `widget` and `symbols`. */
type Setting = Exclude<keyof BoardConfig, 'widget' | 'symbols'>;

/** `--price-board-max-height` as pixels, for a board; undefined when not set. */
export function maxHeightOf(config: BoardConfig): number | undefined {
  const px = Number(config.maxHeight);
  return config.widget === 'board' && config.maxHeight.trim() !== '' && px > 0 ? px : undefined;
}

/** The embed page's own parameters of a configuration (`max-height`), after its attributes. */
function pageParams(config: BoardConfig): Array<[string, string]> {
  const px = maxHeightOf(config);
  return px === undefined ? [] : [['max-height', String(px)]];
}

/** The element's attribute table: which settings it takes, their attribute names and defaults. */
export function attributeTable(widget: EmbedWidget): Readonly<Record<string, AttributeSpec>> {
  return WIDGET_ATTRIBUTES[widget];
}

/** The configuration's value of one of the table's properties; undefined: the configurator does not offer it. */
export function settingOf(config: BoardConfig, property: string): string | undefined {
  if (property === 'symbols') return config.symbols.join(',');
  return property in config && property !== 'widget' ? String(config[property as Setting]) : undefined;
}

/** Where the widget's files are published (a CDN folder, or this site). */
export interface WidgetUrls {
  /** `price-board.js` */
  script: string;
  /** `price-ticker.js` and `price-converter.js` */
  ticker: string;
  converter: string;
  /** `embed.html` */
  embedPage: string;
  /** `embed.js` */
  loader: string;
  /**
   * A style sheet with the widgets' font (Vazirmatn, which embed.html has too), linked by the
   * script-tag snippets: a shadow root's @font-face does not apply, and the host page may have none.
   */
  font?: string;
}

/**
 * A configuration as embedded through a relay (docs/relay.md), which serves the built widgets and
 * the prices from one origin and holds the key: no key, and the relay is its own service address.
 */
export function throughRelay(config: BoardConfig): BoardConfig {
  return { ...config, apiKey: '', baseUrl: '' };
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The attributes a snippet needs, in the table's order, leaving out the element's defaults and the
 * settings it does not take. `base-url` is left out when it is the origin the widget is served
 * from: that is the element's own default.
 */
export function boardAttributes(config: BoardConfig, widgetOrigin: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const chart = config.chart !== 'none';
  /** A symbol setting whose default is the first symbol; one not in the list falls back to it. */
  const otherSymbol = (v: string) => v !== config.symbols[0] && config.symbols.includes(v);
  for (const [property, spec] of Object.entries(attributeTable(config.widget))) {
    let v = settingOf(config, property)?.trim();
    // Always said, so a snippet shows which symbols it holds.
    if (property === 'symbols') {
      out.push([spec.attribute, v ?? '']);
      continue;
    }
    if (v === undefined || v === '' || (spec.default !== undefined && String(spec.default) === v)) continue;
    if (property === 'baseUrl') {
      v = v.replace(/\/+$/, '');
      if (v === widgetOrigin) continue;
    }
    if ((property === 'chartSymbol' || property === 'days') && !chart) continue;
    if ((property === 'chartSymbol' || property === 'symbol') && !otherSymbol(v)) continue;
    if (property === 'pollInterval' && config.stream !== 'auto' && config.stream !== 'poll') continue;
    out.push([spec.attribute, v]);
  }
  return out;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** `encodeURIComponent`, keeping the characters a query may hold as they are, for readability. */
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ',').replace(/%3A/gi, ':').replace(/%2F/gi, '/');
}

/** The embed page address carrying a configuration (`key` is the short name of `api-key`). */
export function embedPageUrl(config: BoardConfig, urls: WidgetUrls): string {
  const query = [...widgetParam(config), ...boardAttributes(config, originOf(urls.embedPage)), ...pageParams(config)]
    .map(([name, value]) => `${name === 'api-key' ? 'key' : name}=${encodeQueryValue(value)}`)
    .join('&');
  return `${urls.embedPage}?${query}`;
}

/** `widget=…` for the embed page and the loader, left out for the default (the board). */
function widgetParam(config: BoardConfig): Array<[string, string]> {
  return config.widget === 'board' ? [] : [['widget', config.widget]];
}

/**
 * The widget's height in its tallest layout, from the configured options, so a plain iframe never
 * cuts it at any width from 250 px (a 300 px sidebar, 200 % zoom; a frame at another width leaves
 * space below; the loader fits any width exactly, narrower ones too). The one source of the iframe
 * snippets' height: README.md and docs/embedding.md point here. Measured on the built widgets in
 * Chromium, 2026-12-06: the board's frame, title and status take 76 px; below 640 px each row
 * takes 55.8 px and the chart 262 px (its controls on one line down to 280 px), wider 36.3 px and
 * 303 px. The ticker is 35 px; the converter 273 px below 270 px (its
 * fields wrapped one under another; 242 px to 299 px, 176 px to 639 px, 131 px wider).
 */
export function estimatedHeight(config: BoardConfig): number {
  if (config.widget === 'ticker') return 35;
  if (config.widget === 'converter') return 273;
  const rows = Math.max(1, config.symbols.length);
  const chart = config.chart !== 'none';
  // The board without its chart is at most the max height (the rows scroll inside).
  const cap = (px: number) => Math.min(px, maxHeightOf(config) ?? Infinity);
  const narrow = cap(76 + rows * 55.8) + (chart ? 262 : 0);
  const wide = cap(76 + rows * 36.3) + (chart ? 303 : 0);
  return Math.ceil(Math.max(narrow, wide));
}

export function scriptSnippet(config: BoardConfig, urls: WidgetUrls): string {
  const script = config.widget === 'board' ? urls.script : urls[config.widget];
  const tag = WIDGET_TAGS[config.widget];
  const px = maxHeightOf(config);
  // A style attribute: a page under a strict style-src sets the variable in its own style sheet instead.
  const style: Array<[string, string]> = px === undefined ? [] : [['style', `--price-board-max-height: ${px}px`]];
  const attributes = [...boardAttributes(config, originOf(script)), ...style]
    .map(([name, value]) => `\n  ${name}="${escapeHtml(value)}"`)
    .join('');
  const font = urls.font ? `<link rel="stylesheet" href="${escapeHtml(urls.font)}">\n` : '';
  return `${font}<script type="module" src="${escapeHtml(script)}"></script>\n<${tag}${attributes}\n></${tag}>`;
}

/**
 * The script snippet through a relay (no key): a board's first `/v1/prices` request starts from the
 * HTML with a preload of exactly the URL the board asks for, and the board takes that answer
 * (DESIGN.md §12).
 */
export function relayScriptSnippet(config: BoardConfig, urls: WidgetUrls): string {
  const snippet = scriptSnippet(config, urls);
  if (config.widget !== 'board') return snippet;
  const href = firstPricesUrl(originOf(urls.script), config.symbols);
  return `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(href)}">\n${snippet}`;
}

export function iframeSnippet(config: BoardConfig, urls: WidgetUrls): string {
  return [
    '<iframe',
    `  src="${escapeHtml(embedPageUrl(config, urls))}"`,
    `  title="${WIDGET_TITLES[config.widget]}"`,
    '  loading="lazy"',
    '  width="100%"',
    `  height="${estimatedHeight(config)}"`,
    '  style="border: 0"',
    '></iframe>',
  ].join('\n');
}

export function loaderSnippet(config: BoardConfig, urls: WidgetUrls): string {
  const attributes = [
    ...widgetParam(config),
    ...boardAttributes(config, originOf(urls.embedPage)),
    ...pageParams(config),
  ]
    .map(([name, value]) => `\n  data-${name === 'api-key' ? 'key' : name}="${escapeHtml(value)}"`)
    .join('');
  return `<div data-price-board${attributes}\n></div>\n<script async src="${escapeHtml(urls.loader)}"></script>`;
}
