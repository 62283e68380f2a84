/**
 * The server side of the widgets' one renderer: `@lit-labs/ssr` runs each widget's own template
 * over the relay's quotes and writes it into a declarative shadow root, styles included.
 */
import { LitElementRenderer, render } from '@lit-labs/ssr';
import { collectResultSync } from '@lit-labs/ssr/lib/render-result.js';
import type { Quote } from '../from-src';
import { compactMarkup } from './compact-markup';
import { addedStyles, loadWidgets, staticHtml, unsafeStatic, type PriceBoardError } from './from-widgets';

/** What a widget renders from: the quotes the relay holds, or the failure it shows instead. */
export interface RenderSeed {
  quotes: readonly Quote[];
  status: 'live' | 'polling' | 'error';
  delaySeconds: number;
  /** Symbols the relay does not serve (left out of the rows, as the client does). */
  unknown?: readonly string[];
  error?: PriceBoardError;
}

/** What the renderer sets of the element's quotes controller (`widget/quotes-controller.ts`). */
interface Seedable {
  live: {
    startFrom(snapshot: { quotes: readonly Quote[]; meta: object; eventId: string }): void;
    status: RenderSeed['status'];
    held: boolean;
    delaySeconds: number;
    error: PriceBoardError | undefined;
    readonly unknown: Set<string>;
  };
}

/** The render running now (renders are synchronous, so one at a time): its element and seed. */
let current: { tag: string; attributes: ReadonlyArray<readonly [string, string]>; seed: RenderSeed } | undefined;

class WidgetRenderer extends LitElementRenderer {
  /** The attributes the fragment was asked with (the query's, normalized), in their order. */
  readonly #asked: ReadonlyArray<readonly [string, string]>;

  // The fragment's element takes the query's attributes here rather than from the template: lit's
  // renderer would leave a space in the open tag for each one it took from there.
  constructor(tagName: string) {
    super(tagName);
    this.#asked = current?.tag === tagName ? current.attributes : [];
    for (const [name, value] of this.#asked) this.setAttribute(name, value);
  }

  // The open tag holds the query's attributes alone, not those the element reflects once set up
  // (every default, and an empty base-url: under Node it has no script address): a page or plugin
  // can add its own, and the client reflects its settings at its first update, as on any page.
  override renderAttributes(): string[] {
    return [attributesText(this.#asked)];
  }

  // The element is made and its attributes set, not yet updated: the one moment to seed it. The
  // element's own connectedCallback is not run (it would subscribe and fetch from this relay). Its
  // quotes are the snapshot a client taking the render over starts from, still held (the status
  // line says when they were read), as that client says until its stream is live.
  override connectedCallback(): void {
    const seed = current?.seed;
    if (seed) {
      const live = (this.element as unknown as Seedable).live;
      live.startFrom({ quotes: seed.quotes, meta: {}, eventId: '' });
      // As the hub says of held quotes from its first answer on: polled or never followed, `polling`.
      const { stream } = this.element as unknown as { stream: string };
      live.status = seed.status === 'live' && (stream === 'poll' || stream === 'off') ? 'polling' : seed.status;
      live.held = true;
      live.delaySeconds = seed.delaySeconds;
      live.error = seed.error;
      for (const symbol of seed.unknown ?? []) live.unknown.add(symbol);
    }
    super.connectedCallback();
  }

  // The widget's own styles, then those its chunks added in its update (the board's extras and
  // columns: `widget/add-styles.ts`), as the element has them once those chunks are there.
  override renderShadow(info: Parameters<LitElementRenderer['renderShadow']>[0]) {
    const out = super.renderShadow(info);
    const added = addedStyles(this.element);
    if (!Array.isArray(out) || added.length === 0) return out;
    const parts = out as unknown[];
    parts.splice(parts.indexOf('</style>'), 0, ...added.map((style) => style.cssText));
    return parts as typeof out;
  }
}

let ready: Promise<void> | undefined;

/** Loads the widgets once (the first fragment waits for it). */
export function prepareRenderer(): Promise<void> {
  ready ??= loadWidgets();
  return ready;
}

/** `"`, `&`, `<` and `>` as entities: a value inside a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** ` name="value"` of each of `attributes` (values escaped). */
function attributesText(attributes: ReadonlyArray<readonly [string, string]>): string {
  return attributes.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
}

/**
 * The element alone, no shadow root: what a page shows when a render fails (the element then
 * fetches and renders in the browser as it would without the relay's render).
 */
export function bareElement(tag: string, attributes: ReadonlyArray<readonly [string, string]>): string {
  return `<${tag}${attributesText(attributes)}></${tag}>`;
}

/** `<tag attributes>` with its declarative shadow root rendered from `seed`. Call {@link prepareRenderer} first. */
export function renderWidget(
  tag: string,
  attributes: ReadonlyArray<readonly [string, string]>,
  seed: RenderSeed,
): string {
  current = { tag, attributes, seed };
  try {
    const markup = collectResultSync(
      render(staticHtml`<${unsafeStatic(tag)}></${unsafeStatic(tag)}>`, {
        elementRenderers: [WidgetRenderer],
      }),
    );
    return compactMarkup(markup);
  } finally {
    current = undefined;
  }
}
