/**
 * The configurator: form controls → one live preview `<price-board>`, `<price-ticker>` or
 * `<price-converter>` (updated attribute by attribute, re-created only when the widget type
 * changes, so the elements' shared connection and cache keep requests low) → the embed snippets
 * and the page's own URL (a configuration can be shared as a link).
 */
import { WIDGET_TAGS } from '../src/embed/params';
import { SymbolPicker } from './symbol-picker';
import {
  attributeTable,
  boardAttributes,
  settingOf,
  iframeSnippet,
  loaderSnippet,
  relayScriptSnippet,
  maxHeightOf,
  scriptSnippet,
  throughRelay,
  type BoardConfig,
  type WidgetUrls,
} from './snippets';

/** Changing symbols re-subscribes the board; wait for a pause in clicking. */
const SYMBOLS_DEBOUNCE_MS = 400;

const STATUS_LABELS: Readonly<Record<string, string>> = {
  loading: 'در حال بارگیری…',
  live: 'زنده',
  polling: 'به‌روزرسانی دوره‌ای',
  reconnecting: 'در حال اتصال دوباره…',
  offline: 'آفلاین',
  error: 'خطا',
};

export interface ConfiguratorParts {
  form: HTMLFormElement;
  preview: HTMLElement;
  previewPanel: HTMLElement;
  statusBadge: HTMLElement;
  chips: HTMLOListElement;
  search: HTMLInputElement;
  groups: HTMLElement;
  code: { script: HTMLElement; iframe: HTMLElement; loader: HTMLElement };
  /** The snippets' form: radios `connection` = `relay` (through this origin's relay, no key) or `key` (direct). */
  connection: HTMLElement;
}

const RADIO_FIELDS = ['widget', 'theme', 'unit', 'chart', 'days', 'density'] as const;
/** Checkboxes whose checked values, in the form's order, make one comma-separated setting. */
const LIST_FIELDS = ['columns'] as const;
const TEXT_FIELDS = {
  link: 'link',
  'max-height': 'maxHeight',
  'api-key': 'apiKey',
  'base-url': 'baseUrl',
  stream: 'stream',
  'poll-interval': 'pollInterval',
  speed: 'speed',
  symbol: 'symbol',
  amount: 'amount',
} as const;

/** The attribute names the widget's table has. */
function attributeNames(config: BoardConfig): Set<string> {
  return new Set(Object.values(attributeTable(config.widget)).map((spec) => spec.attribute));
}

/**
 * The attributes of the preview element for a configuration: every one the element takes set
 * explicitly, but `chart-symbol`, which the board sets itself when a row is selected.
 */
function previewAttributes(config: BoardConfig): Map<string, string | null> {
  const attributes = new Map<string, string | null>();
  for (const [property, spec] of Object.entries(attributeTable(config.widget))) {
    const v = settingOf(config, property)?.trim();
    if (v !== undefined && property !== 'chartSymbol') attributes.set(spec.attribute, v === '' ? null : v);
  }
  return attributes;
}

export class Configurator {
  private config: BoardConfig;
  private symbolsTimer: ReturnType<typeof setTimeout> | undefined;
  /** The preview element: replaced when the widget type changes. */
  private preview: HTMLElement;
  /** The snippets and the preview use the relay form (no key, this origin) rather than the keyed one. */
  private relay: boolean;
  readonly picker: SymbolPicker;

  constructor(
    private readonly parts: ConfiguratorParts,
    initial: BoardConfig,
    /** The widget's files, served by the relay the relay form names. */
    private readonly urls: WidgetUrls,
    connection: 'relay' | 'key',
  ) {
    this.config = { ...initial, symbols: [...initial.symbols] };
    this.relay = connection === 'relay';
    for (const input of parts.connection.querySelectorAll<HTMLInputElement>('input[name="connection"]'))
      input.checked = input.value === connection;
    this.preview = parts.preview;
    this.writeForm();
    this.showControls();
    this.picker = new SymbolPicker(parts, this.config.symbols, (symbols) => this.setSymbols(symbols));

    const { form, previewPanel } = parts;
    form.addEventListener('submit', (event) => event.preventDefault());
    // Radios and selects apply at once; typed values update the code while typing and the
    // preview when committed (change), so half-typed keys do not open connections.
    const isSetting = (event: Event) => {
      const name = (event.target as Partial<HTMLInputElement> | null)?.name ?? '';
      return [...RADIO_FIELDS, ...LIST_FIELDS].includes(name as never) || name in TEXT_FIELDS;
    };
    form.addEventListener('change', (event) => {
      if (isSetting(event)) this.readForm(true);
    });
    form.addEventListener('input', (event) => {
      if (isSetting(event)) this.readForm(false);
    });
    parts.connection.addEventListener('change', (event) => {
      const input = event.target as Partial<HTMLInputElement> | null;
      if (input?.name !== 'connection') return;
      this.relay = input.value === 'relay';
      this.applyToPreview();
      this.render();
    });
    // On the panel: the events bubble out of whichever element is previewed.
    previewPanel.addEventListener('price-board-status', (event) => {
      const status = String((event as CustomEvent<{ status?: unknown }>).detail?.status ?? '');
      parts.statusBadge.textContent = STATUS_LABELS[status] ?? status;
      parts.statusBadge.dataset.status = status;
    });
    previewPanel.addEventListener('price-board-select', (event) => {
      const symbol = (event as CustomEvent<{ symbol?: unknown }>).detail?.symbol;
      if (typeof symbol === 'string') {
        this.config.chartSymbol = symbol;
        this.render();
      }
    });
    this.applyToPreview();
    this.render();
  }

  get current(): BoardConfig {
    return { ...this.config, symbols: [...this.config.symbols] };
  }

  /**
   * Shows the controls (`data-attribute`) of the attributes the chosen widget has, and those of
   * the widget (`data-widget`), hides the others.
   */
  private showControls(): void {
    const names = attributeNames(this.config);
    for (const control of this.parts.form.querySelectorAll<HTMLElement>('[data-attribute], [data-widget]')) {
      const { attribute, widget } = control.dataset;
      control.hidden = widget ? widget !== this.config.widget : !names.has(attribute ?? '');
    }
  }

  /** The converter's symbol choice: the chosen symbols (none chosen: the first). */
  private writeSymbolChoice(): void {
    const select = this.parts.form.elements.namedItem('symbol');
    if (!(select instanceof HTMLSelectElement)) return;
    const wanted = ['', ...this.config.symbols];
    if ([...select.options].map((o) => o.value).join(',') !== wanted.join(',')) {
      const first = select.options[0]?.text ?? '';
      select.replaceChildren(...wanted.map((id, i) => new Option(i === 0 ? first : id, id)));
    }
    select.value = this.config.symbols.includes(this.config.symbol) ? this.config.symbol : '';
  }

  private writeForm(): void {
    const { form } = this.parts;
    for (const name of RADIO_FIELDS) {
      const value = this.config[name];
      for (const input of form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`))
        input.checked = input.value === value;
    }
    for (const [name, key] of Object.entries(TEXT_FIELDS)) {
      const input = form.elements.namedItem(name);
      if (input instanceof HTMLInputElement || input instanceof HTMLSelectElement) input.value = this.config[key];
    }
    for (const name of LIST_FIELDS) {
      const values = this.config[name].split(',').map((v) => v.trim());
      for (const input of form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`))
        input.checked = values.includes(input.value);
    }
  }

  private readForm(commit: boolean): void {
    const data = new FormData(this.parts.form);
    const next = { ...this.config };
    for (const name of RADIO_FIELDS) (next as Record<string, unknown>)[name] = String(data.get(name) ?? next[name]);
    for (const [name, key] of Object.entries(TEXT_FIELDS)) next[key] = String(data.get(name) ?? '');
    // None checked: the element's default columns.
    for (const name of LIST_FIELDS) next[name] = data.getAll(name).map(String).join(',');
    this.config = next;
    this.showControls();
    if (commit) this.applyToPreview();
    this.render();
  }

  private setSymbols(symbols: string[]): void {
    this.config.symbols = symbols;
    if (!symbols.includes(this.config.chartSymbol)) this.config.chartSymbol = '';
    this.render();
    clearTimeout(this.symbolsTimer);
    this.symbolsTimer = setTimeout(() => this.applyToPreview(), SYMBOLS_DEBOUNCE_MS);
  }

  /** The configuration as the snippets give it: through the relay, without key and base-url. */
  private get shown(): BoardConfig {
    return this.relay ? throughRelay(this.config) : this.config;
  }

  /**
   * Sets only the attributes whose value differs: unchanged settings cost nothing. The preview
   * takes exactly the snippets' connection (a key's limits show here as on the owner's page).
   */
  private applyToPreview(): void {
    clearTimeout(this.symbolsTimer);
    const { previewPanel } = this.parts;
    const tag = WIDGET_TAGS[this.config.widget];
    if (this.preview.localName !== tag) {
      const next = document.createElement(tag);
      this.preview.replaceWith(next);
      this.preview = next;
    }
    const preview = this.preview;
    const attributes = previewAttributes(this.shown);
    // An empty symbol list would mean "the default symbols"; show nothing new instead.
    if (this.config.symbols.length === 0) attributes.delete('symbols');
    for (const [name, value] of attributes) {
      if (value === null) {
        if (preview.hasAttribute(name)) preview.removeAttribute(name);
      } else if (preview.getAttribute(name) !== value) {
        preview.setAttribute(name, value);
      }
    }
    const maxHeight = maxHeightOf(this.config);
    if (maxHeight === undefined) preview.style.removeProperty('--price-board-max-height');
    else preview.style.setProperty('--price-board-max-height', `${maxHeight}px`);
    previewPanel.dataset.theme = this.config.theme;
  }

  /** The code blocks and the page URL. */
  private render(): void {
    this.writeSymbolChoice();
    const { code } = this.parts;
    const config = this.config;
    const empty = config.symbols.length === 0;
    const note = '<!-- دست‌کم یک نماد انتخاب کنید -->';
    const { shown, urls } = this;
    code.script.textContent = empty ? note : (this.relay ? relayScriptSnippet : scriptSnippet)(shown, urls);
    code.iframe.textContent = empty ? note : iframeSnippet(shown, urls);
    code.loader.textContent = empty ? note : loaderSnippet(shown, urls);

    const params = new URLSearchParams();
    if (config.widget !== 'board') params.set('widget', config.widget);
    // The connection too: a shared link (or a reload) opens the same form.
    for (const [name, value] of boardAttributes(shown, location.origin))
      params.set(name === 'api-key' ? 'key' : name, value);
    const maxHeight = maxHeightOf(config);
    if (maxHeight !== undefined) params.set('max-height', String(maxHeight));
    const query = params.toString().replace(/%2C/gi, ',');
    history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
  }
}

/** Keyboard-operable tabs (arrow keys follow the reading direction; Home/End). */
export function wireTabs(tablist: HTMLElement): void {
  const tabs = [...tablist.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const select = (tab: HTMLButtonElement) => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(t.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !on;
    }
  };
  tablist.addEventListener('click', (event) => {
    const tab = (event.target as Element).closest<HTMLButtonElement>('[role="tab"]');
    if (tab) select(tab);
  });
  tablist.addEventListener('keydown', (event) => {
    const index = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const rtl = getComputedStyle(tablist).direction === 'rtl';
    const step: Record<string, number> = { ArrowLeft: rtl ? 1 : -1, ArrowRight: rtl ? -1 : 1 };
    let next: number | undefined;
    if (event.key in step) next = (index + (step[event.key] ?? 0) + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    const tab = next === undefined ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    select(tab);
    tab.focus();
  });
}
