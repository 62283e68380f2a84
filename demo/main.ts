/**
 * The demo page: a live board in the hero, the configurator, three ready examples.
 *
 * By default the page's origin is a relay (`npm start` runs one: it serves this page and the
 * prices, and holds the key), so every board on the page and the snippets are keyless and name
 * this origin; the configurator also offers the keyed direct form, naming `SERVICE_URL`.
 * Page parameters (same names as the attributes): `key` / `api-key` or `base-url` switch the page
 * to the keyed form and preset its connection (the page's own widgets then use `SHOWCASE_KEY`
 * for `demo-key`, below; the preview uses exactly the snippet's); `widget` and the attributes of
 * that widget (`symbols`, `theme`, ...; the ticker's `speed`, the converter's `symbol` and
 * `amount`) preset the configurator, which keeps the URL in step so a configuration can be
 * shared as a link.
 *
 * The page's boards use the same connection, so they share it (a key given as a parameter may
 * allow only 10 requests a minute): all are created in one task so their first quotes come in one
 * request, the examples' charts wait until they are scrolled to, and the symbol list is kept per
 * session.
 */
import 'vazirmatn/Vazirmatn-Variable-font-face.css';
// The same face as a file of dist/, for the script-tag snippets (see `WidgetUrls.font`).
import fontSheet from './font.css?url';
import './styles.css';
import '../src/price-board';
import '../src/price-ticker';
import '../src/price-converter';
import type { SymbolInfo } from '../src/shared/types';
import { readEmbedParams, readWidget, WIDGET_TAGS } from '../src/embed/params';
import {
  BOARD_ATTRIBUTES,
  CONVERTER_ATTRIBUTES,
  TICKER_ATTRIBUTES,
  WIDGET_ATTRIBUTES,
  type AttributeSpec,
} from '../src/shared/attribute-table';
import { Configurator, wireTabs } from './configurator';
import { wireCopyButtons } from './copy';
import { relayScriptSnippet, scriptSnippet, throughRelay, type BoardConfig, type WidgetUrls } from './snippets';

/** The key the snippets and the configurator name: the one a newcomer has (10 requests a minute). */
const DEMO_KEY = 'demo-key';
/**
 * The key the page's own widgets use while the configured key is that preset: a showcase is the
 * site's own page, on its own plan (the sandbox's enterprise plan: 600 a minute, no daily cap), so
 * reloading the demo (whose URL keeps the configuration, key included) never shows its examples'
 * rate-limit errors. Any other key, typed in the form or given as a page parameter, is used as is.
 */
const SHOWCASE_KEY = 'enterprise-key';
/**
 * The price service a keyed snippet names by default: `npm start` builds its sandbox's address in
 * (scripts/start.ts); elsewhere none (the element's default, the origin of its script).
 */
const SERVICE_URL: string = import.meta.env.VITE_PRICE_SERVICE_URL ?? '';

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`demo: #${id} is missing`);
  return node as T;
}

/**
 * Where the widget's files are: beside the demo in dist/ (its own script is in `assets/`), as
 * `npm start`'s relay and any host of dist/ serve it. So the snippets name the built files a site
 * embeds, and their relay form names this origin.
 */
function widgetUrls(): WidgetUrls {
  const at = (path: string) => new URL(path, import.meta.url).href;
  // Non-literal paths keep Vite from treating them as assets of this module.
  const files = {
    script: '../price-board.js',
    ticker: '../price-ticker.js',
    converter: '../price-converter.js',
    embedPage: '../embed.html',
    loader: '../embed.js',
  };
  return {
    script: at(files.script),
    ticker: at(files.ticker),
    converter: at(files.converter),
    embedPage: at(files.embedPage),
    loader: at(files.loader),
    font: at(fontSheet),
  };
}

/** The page's parameters: the attributes of the widget it names (`widget=`, default the board). */
const pageWidget = readWidget(location.search);
const page = new Map<string, string>(
  readEmbedParams(
    location.search,
    Object.values(WIDGET_ATTRIBUTES[pageWidget]).map((spec) => spec.attribute),
  ).attributes,
);
/** A connection given as a parameter: the page shows the keyed form; otherwise this origin relays. */
const keyed = page.has('api-key') || page.has('base-url');
const apiKey = page.get('api-key') ?? DEMO_KEY;
const ownKey = (key: string): string => (key === DEMO_KEY ? SHOWCASE_KEY : key);
const baseUrl = page.get('base-url') ?? SERVICE_URL;
/** The page's own widgets' connection: the relay (none: this origin, no key) or the given one. */
const own: Record<string, string> = keyed
  ? { 'api-key': ownKey(apiKey), ...(baseUrl ? { 'base-url': baseUrl } : {}) }
  : {};
const urls = widgetUrls();

/** A board (or `tag`) for `slot`: attributes set before it is connected, so it starts configured. */
function mountBoard(slot: HTMLElement, attributes: Record<string, string>, tag = 'price-board'): HTMLElement {
  const board = document.createElement(tag);
  const all: Record<string, string> = { ...own, ...attributes };
  for (const [name, value] of Object.entries(all)) board.setAttribute(name, value);
  slot.replaceChildren(board);
  return board;
}

/** An element's default as the configurator holds it (none: empty, "not set"). */
const byDefault = (spec: AttributeSpec): string => (spec.default === undefined ? '' : String(spec.default));

/**
 * Every setting at the elements' defaults (the attribute table), but the demo's 7 days (the demo
 * key's history) and the light theme: the element's `auto` would turn the board dark for a visitor
 * who prefers dark, on a site that is only light, which the owner testing in light mode never sees.
 */
function config(overrides: Partial<BoardConfig>): BoardConfig {
  return {
    widget: 'board',
    symbols: byDefault(BOARD_ATTRIBUTES.symbols).split(','),
    apiKey,
    baseUrl,
    theme: 'light',
    unit: byDefault(BOARD_ATTRIBUTES.unit),
    chart: byDefault(BOARD_ATTRIBUTES.chart),
    chartSymbol: byDefault(BOARD_ATTRIBUTES.chartSymbol),
    days: '7',
    columns: byDefault(BOARD_ATTRIBUTES.columns),
    density: byDefault(BOARD_ATTRIBUTES.density),
    link: byDefault(BOARD_ATTRIBUTES.link),
    maxHeight: '',
    stream: byDefault(BOARD_ATTRIBUTES.stream),
    pollInterval: byDefault(BOARD_ATTRIBUTES.pollInterval),
    speed: byDefault(TICKER_ATTRIBUTES.speed),
    symbol: byDefault(CONVERTER_ATTRIBUTES.symbol),
    amount: byDefault(CONVERTER_ATTRIBUTES.amount),
    ...overrides,
  };
}

// The three examples: their boards and their code come from one configuration each.
const EXAMPLES: Array<[slot: string, code: string, BoardConfig]> = [
  [
    'example-full',
    'code-example-full',
    config({ symbols: ['usd', 'eur', 'gbp', 'aed', 'try', 'cny'], theme: 'light', chartSymbol: 'eur' }),
  ],
  [
    'example-sidebar',
    'code-example-sidebar',
    config({
      symbols: ['gold_18', 'gold_24', 'coin_emami', 'coin_bahar', 'coin_half', 'coin_quarter'],
      theme: 'light',
      chart: 'none',
    }),
  ],
  [
    'example-dark',
    'code-example-dark',
    config({ symbols: ['ons', 'silver_ounce', 'silver_999', 'gold_melted'], theme: 'dark', chart: 'line' }),
  ],
];

function boardAttributesOf(c: BoardConfig): Record<string, string> {
  const attributes: Record<string, string> = {
    symbols: c.symbols.join(','),
    theme: c.theme,
    unit: c.unit,
    chart: c.chart,
    days: c.days,
  };
  if (c.chartSymbol) attributes['chart-symbol'] = c.chartSymbol;
  return attributes;
}

function initialConfiguratorConfig(): BoardConfig {
  const base = config({ widget: pageWidget });
  const settings: Record<string, string> = {};
  for (const [property, spec] of Object.entries(WIDGET_ATTRIBUTES[pageWidget])) {
    const value = page.get(spec.attribute);
    if (value !== undefined && property !== 'symbols' && property in base) settings[property] = value;
  }
  const symbols = page.get('symbols');
  const maxHeight = readEmbedParams(location.search).maxHeight;
  return {
    ...base,
    ...settings,
    maxHeight: maxHeight?.endsWith('px') ? maxHeight.slice(0, -2) : '',
    symbols: symbols
      ? [
          ...new Set(
            symbols
              .split(',')
              .map((s) => s.trim().toLowerCase())
              .filter(Boolean),
          ),
        ]
      : base.symbols,
  };
}

/** Runs `then` once `target` comes near the viewport. */
function whenSeen(target: Element, then: () => void): void {
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      then();
    },
    { rootMargin: '200px 0px' },
  );
  observer.observe(target);
}

/** The symbol list rarely changes: kept for the session, to spare the key's budget on reloads. */
async function symbolList(): Promise<SymbolInfo[]> {
  const base = own['base-url'] ?? location.origin;
  const cacheKey = `price-board-demo:symbols:${base}`;
  try {
    const cached = JSON.parse(sessionStorage.getItem(cacheKey) ?? 'null') as unknown;
    if (Array.isArray(cached) && cached.length > 0) return cached as SymbolInfo[];
  } catch {
    /* storage unavailable or corrupt: fetch */
  }
  // Loaded here, not imported: the build puts every src/ module a page imports into price-board.js.
  const { fetchSymbols } = await import('../src/api/symbols');
  const list = await fetchSymbols({ baseUrl: base, apiKey: own['api-key'] ?? '' });
  try {
    sessionStorage.setItem(cacheKey, JSON.stringify(list));
  } catch {
    /* storage full or unavailable */
  }
  return list;
}

/** The symbol list from the service, for the picker. */
async function loadSymbolList(configurator: Configurator): Promise<void> {
  const status = byId('symbols-status');
  status.textContent = 'در حال دریافت فهرست نمادها…';
  try {
    configurator.picker.setSymbols(await symbolList());
    status.textContent = '';
  } catch (error) {
    // The picker still shows (and lets you remove) the chosen symbols by id.
    const message = (error as { messageFa?: unknown }).messageFa;
    status.textContent = `فهرست نمادها دریافت نشد. ${typeof message === 'string' ? message : ''}`.trim();
    status.dataset.state = 'error';
  }
}

function main(): void {
  mountBoard(byId('hero-slot'), {
    symbols: 'usd,eur,gold_18,coin_emami,ons',
    theme: 'light',
    chart: 'candles',
    days: '7',
  });

  const initial = initialConfiguratorConfig();
  const preview = mountBoard(byId('preview-slot'), boardAttributesOf(initial), WIDGET_TAGS[initial.widget]);
  const configurator = new Configurator(
    {
      form: byId<HTMLFormElement>('config-form'),
      preview,
      previewPanel: byId('preview-panel'),
      statusBadge: byId('preview-status'),
      chips: byId<HTMLOListElement>('symbol-chips'),
      search: byId<HTMLInputElement>('symbol-search'),
      groups: byId('symbol-groups'),
      code: { script: byId('code-script'), iframe: byId('code-iframe'), loader: byId('code-loader') },
      connection: byId('snippet-connection'),
    },
    initial,
    urls,
    keyed ? 'key' : 'relay',
  );

  for (const [slot, code, example] of EXAMPLES) {
    // Rows now (their quotes come in the same first request as everyone's), charts when seen:
    // each chart costs a history request, and a key given as a parameter may allow 10 a minute.
    const board = mountBoard(byId(slot), { ...boardAttributesOf(example), chart: 'none' });
    if (example.chart !== 'none') whenSeen(board, () => board.setAttribute('chart', example.chart));
    byId(code).textContent = keyed ? scriptSnippet(example, urls) : relayScriptSnippet(throughRelay(example), urls);
  }

  wireTabs(document.querySelector<HTMLElement>('[role="tablist"]') ?? byId('tab-script'));
  wireCopyButtons(document, byId('copy-status'));
  void loadSymbolList(configurator);
}

main();
