/**
 * Whether a widget's prices are no longer current, and since when: the ticker's and the
 * converter's mark (the board says it in its status line). Prices stop being current when the
 * connection is `offline` or in `error`, or `reconnecting` for long; they were last read when the
 * connection left `live` or `polling`.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { ConnectionStatus } from '../shared/types';

/**
 * Tehran's time of day in Persian digits (`۱۴:۰۵`), as the board's time cells say it. Not through
 * format/date.ts: that module would then load with every board's first rows (vite.config.ts).
 */
const timeOf = (at: number): string =>
  new Date(at).toLocaleTimeString('fa-IR', {
    timeZone: 'Asia/Tehran',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });

/** A dropped stream that comes back within this is a blip, not stale prices. */
export const STALE_AFTER_MS = 10_000;

const working = (status: ConnectionStatus): boolean => status === 'live' || status === 'polling';

/** What the mark reads of the widget's quotes (its `QuotesController`). */
export interface StaleSource {
  readonly status: ConnectionStatus;
  snapshot(): ReadonlyMap<string, unknown>;
}

export class StaleMark implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #live: StaleSource;
  #status: ConnectionStatus = 'loading';
  /** When the prices were last known current (epoch ms). */
  #readAt = Date.now();
  /** When the connection began reconnecting (epoch ms). */
  #reconnectingSince = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(host: ReactiveControllerHost, live: StaleSource) {
    this.#host = host;
    this.#live = live;
    host.addController(this);
  }

  /** Follows the status before each render (a status change always asks for one). */
  hostUpdate(): void {
    const status = this.#live.status;
    if (status === this.#status) return;
    const now = Date.now();
    if (working(this.#status)) this.#readAt = now;
    this.#status = status;
    clearTimeout(this.#timer);
    if (status !== 'reconnecting') return;
    this.#reconnectingSince = now;
    this.#timer = setTimeout(() => this.#host.requestUpdate(), STALE_AFTER_MS);
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
    this.#status = 'loading';
  }

  /** Whether prices are shown that are no longer current. */
  get stale(): boolean {
    const status = this.#status;
    if (this.#live.snapshot().size === 0) return false;
    if (status === 'offline' || status === 'error') return true;
    return status === 'reconnecting' && Date.now() - this.#reconnectingSince >= STALE_AFTER_MS;
  }

  /** The mark: that the prices are not current, and when they were read (Tehran time). */
  render(): TemplateResult | typeof nothing {
    if (!this.stale) return nothing;
    return html`<span class="stale" role="status">قیمت‌ها به‌روز نیستند · ساعت ${timeOf(this.#readAt)}</span>`;
  }
}
