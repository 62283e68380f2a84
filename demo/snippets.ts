/**
 * The embed code the demo shows: a script tag, a plain iframe and the loader placeholder, for one
 * configuration of a board, a ticker or a converter. Pure string building; attribute values are
 * HTML-escaped, URL parameters encoded.
 */
import { WIDGET_TAGS, WIDGET_TITLES, type EmbedWidget } from '../src/embed/params';

/** A widget configuration, by attribute name. Empty strings mean "not set". */
export interface BoardConfig {
  /** Which element: `board`, `ticker` or `converter` (the chart settings are the board's only). */
  widget: EmbedWidget;
  symbols: string[];
  apiKey: string;
  baseUrl: string;
  theme: string;
  unit: string;
  chart: string;
  chartSymbol: string;
  days: string;
  stream: string;
  pollInterval: string;
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
}

/**
 * The example address of a relay (README "Serving real traffic": `npm run relay`), which serves the
 * built widgets and the prices from one origin and holds the key: its snippets carry no key.
 */
export const RELAY_ORIGIN = 'https://prices.example.com';

/** The widget's files as a relay at `origin` serves them (the same names as in dist/). */
export function relayUrls(origin: string = RELAY_ORIGIN): WidgetUrls {
  return {
    script: `${origin}/price-board.js`,
    ticker: `${origin}/price-ticker.js`,
    converter: `${origin}/price-converter.js`,
    embedPage: `${origin}/embed.html`,
    loader: `${origin}/embed.js`,
  };
}

/** A configuration as embedded through a relay: no key, and the relay is its own service address. */
export function throughRelay(config: BoardConfig): BoardConfig {
  return { ...config, apiKey: '', baseUrl: '' };
}

/** The element's defaults (DESIGN.md section 2): attributes equal to them are left out. */
const DEFAULTS: Readonly<Record<string, string>> = {
  theme: 'auto',
  unit: 'toman',
  chart: 'candles',
  days: '30',
  stream: 'auto',
  'poll-interval': '30',
};

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * The attributes a snippet needs, in a stable order, leaving out defaults. `base-url` is left out
 * when it is the origin the widget is served from: that is the element's own default.
 */
export function boardAttributes(config: BoardConfig, widgetOrigin: string): Array<[string, string]> {
  const out: Array<[string, string]> = [['symbols', config.symbols.join(',')]];
  const add = (name: string, value: string) => {
    const v = value.trim();
    if (v !== '' && DEFAULTS[name] !== v) out.push([name, v]);
  };
  add('api-key', config.apiKey);
  const base = config.baseUrl.trim().replace(/\/+$/, '');
  if (base !== '' && base !== widgetOrigin) out.push(['base-url', base]);
  add('theme', config.theme);
  add('unit', config.unit);
  if (config.widget === 'board') add('chart', config.chart);
  if (config.widget === 'board' && config.chart !== 'none') {
    // The first symbol is the default chart symbol.
    if (config.chartSymbol && config.chartSymbol !== config.symbols[0] && config.symbols.includes(config.chartSymbol)) {
      out.push(['chart-symbol', config.chartSymbol]);
    }
    add('days', config.days);
  }
  add('stream', config.stream);
  if (config.stream === 'auto' || config.stream === 'poll') add('poll-interval', config.pollInterval);
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
  const query = [...widgetParam(config), ...boardAttributes(config, originOf(urls.embedPage))]
    .map(([name, value]) => `${name === 'api-key' ? 'key' : name}=${encodeQueryValue(value)}`)
    .join('&');
  return `${urls.embedPage}?${query}`;
}

/** `widget=…` for the embed page and the loader, left out for the default (the board). */
function widgetParam(config: BoardConfig): Array<[string, string]> {
  return config.widget === 'board' ? [] : [['widget', config.widget]];
}

/** A height that fits the widget before it can tell (the loader resizes; a plain iframe cannot). */
export function estimatedHeight(config: BoardConfig): number {
  if (config.widget === 'ticker') return 44;
  if (config.widget === 'converter') return 170;
  const rows = Math.max(1, config.symbols.length);
  return 72 + rows * 52 + (config.chart === 'none' ? 0 : 340);
}

export function scriptSnippet(config: BoardConfig, urls: WidgetUrls): string {
  const script = config.widget === 'board' ? urls.script : urls[config.widget];
  const tag = WIDGET_TAGS[config.widget];
  const attributes = boardAttributes(config, originOf(script))
    .map(([name, value]) => `\n  ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<script type="module" src="${escapeHtml(script)}"></script>\n<${tag}${attributes}\n></${tag}>`;
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
  const attributes = [...widgetParam(config), ...boardAttributes(config, originOf(urls.embedPage))]
    .map(([name, value]) => `\n  data-${name === 'api-key' ? 'key' : name}="${escapeHtml(value)}"`)
    .join('');
  return `<div data-price-board${attributes}\n></div>\n<script async src="${escapeHtml(urls.loader)}"></script>`;
}
