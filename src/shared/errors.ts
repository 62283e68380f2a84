import { ERROR_MESSAGES } from './error-messages';

/**
 * What each failure means, said once; the client, the stream, the poller, the hub, the board and
 * the chart all read it:
 * - `for: 'developer'`: a visitor of the page cannot fix it (the key, the domain, the plan, the
 *   request): the widget shows the visitor's words (`error-messages.ts`, `visitor`); the detail goes
 *   to `price-board-error` and to one `console.warn`.
 * - `for: 'setup'`: a mistake in the page's configuration (DESIGN.md section 9): never shown to
 *   visitors (the widget works with the default, or without that row); the detail goes to the
 *   event (with `attribute` or `symbols`, for the demo's preview) and to one `console.warn`.
 * - `final`: trying the same again cannot help (the key, the plan or the request is wrong). With
 *   `of`, it is final only for that thing: the `symbol`s named (the rest carries on), the
 *   `resource` at that address (a stream keeps trying it: the service may add it), the `setting`.
 * - `retried`: the client tries the request again at once, with capped backoff and jitter.
 * - `transient`: not worth an immediate retry, but the next poll, reconnect or history retry may
 *   succeed; fresh data clears it from the board.
 * The comment on each code says when it happens (the error table of docs/elements/board.md is generated from this
 * one: scripts/error-policy.mjs). The Persian message of each code for people is in
 * `error-messages.ts`.
 */
export const ERROR_POLICY = {
  /** 401 */
  unauthorized: { policy: 'final', for: 'developer' },
  /** 403: the key is restricted to other domains or addresses, or the plan does not allow it */
  forbidden: { policy: 'final', for: 'developer' },
  /** 400, 422 */
  bad_request: { policy: 'final', for: 'developer' },
  /** 404 */
  not_found: { policy: 'final', of: 'resource', for: 'developer' },
  /** the service does not know a symbol (404 naming it, or missing from an answer) */
  unknown_symbol: { policy: 'final', of: 'symbol', for: 'setup' },
  /** an attribute value the element cannot use */
  invalid_attribute: { policy: 'final', of: 'setting', for: 'setup' },
  /** no answer at all (from the service, or for one of the widget's own lazily loaded code chunks) */
  network: { policy: 'retried' },
  /** 5xx */
  server: { policy: 'retried' },
  /** no answer within 10 s */
  timeout: { policy: 'transient' },
  /** 429 (the plan's limit), honouring `Retry-After` */
  rate_limited: { policy: 'transient', for: 'developer' },
  /** a body that cannot be read or is not valid */
  bad_response: { policy: 'transient' },
} as const satisfies Record<
  string,
  {
    policy: 'final' | 'retried' | 'transient';
    of?: 'symbol' | 'resource' | 'setting';
    for?: 'developer' | 'setup';
  }
>;

/** Error codes of `price-board-error` (DESIGN.md section 2). */
export type ErrorCode = keyof typeof ERROR_POLICY;

/** The Persian message of each code, and the visitor's words. */
export type ErrorMessages = Readonly<Record<ErrorCode | 'visitor', string>>;
/** The table (`error-messages.ts`), checked here to name every code. */
const messages: ErrorMessages = ERROR_MESSAGES;

type Policy = { policy: string; of?: string; for?: string };
const policyOf = (error: PriceBoardError): Policy => ERROR_POLICY[error.code];

/** Whether the client should send the same request again at once (with backoff). */
export function isRetried(error: unknown): error is PriceBoardError {
  return error instanceof PriceBoardError && policyOf(error).policy === 'retried';
}

/** Whether polling (or re-fetching) must stop: final, unless only some symbols are unknown. */
export function endsRetries(error: PriceBoardError): boolean {
  return error.final && policyOf(error).of !== 'symbol';
}

/** Whether a stream must stop reconnecting: final for every request, not for one thing only. */
export function endsStream(error: PriceBoardError): boolean {
  return error.final && policyOf(error).of === undefined;
}

/** The `detail` of a `price-board-error` event. Never contains the API key. */
export interface ErrorDetail {
  code: ErrorCode;
  /** Persian, for the site's developer. */
  message: string;
  status?: number;
  /** `invalid_attribute`: the attribute whose value fell back to its default (never the value). */
  attribute?: string;
  /** `unknown_symbol`: the ids the service does not know. */
  symbols?: string[];
}

/**
 * A failure as a value: a code, a Persian message for people and an English one (`message`) for
 * logs. `retryAfterMs` carries a parsed `Retry-After`.
 */
export class PriceBoardError extends Error {
  override readonly name = 'PriceBoardError';
  readonly code: ErrorCode;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly #messageFa: string | undefined;
  /** Extra machine-readable facts, e.g. `{ symbols: [...] }` for `unknown_symbol`. */
  readonly data?: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    init: {
      status?: number;
      retryAfterMs?: number;
      messageFa?: string;
      data?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.#messageFa = init.messageFa;
    this.data = init.data;
  }

  /** Persian message for the developer: its own, else its code's (`error-messages.ts`). */
  get messageFa(): string {
    return this.#messageFa ?? messages[this.code];
  }

  /** `unknown_symbol`: the ids it names (`data.symbols`; no other code has them). */
  get symbols(): string[] {
    const ids = this.data?.symbols;
    return Array.isArray(ids) ? ids.map(String) : [];
  }

  /**
   * Whose it is to fix (see `ERROR_POLICY`): `developer` (visitors read other words), `setup` (a
   * configuration mistake, never shown to visitors); undefined: visitors read its message.
   */
  get for(): 'developer' | 'setup' | undefined {
    return policyOf(this).for as 'developer' | 'setup' | undefined;
  }

  /** What a widget shows visitors of it: {@link messageFa}, or the visitor's words (`for`). */
  get shownFa(): string {
    return this.for ? messages.visitor : this.messageFa;
  }

  /** Retrying cannot help (see `ERROR_POLICY`). */
  get final(): boolean {
    return ERROR_POLICY[this.code].policy === 'final';
  }

  toDetail(): ErrorDetail {
    const { status, symbols } = this;
    const attribute = this.data?.attribute as string | undefined;
    return {
      code: this.code,
      message: this.messageFa,
      ...(status === undefined ? {} : { status }),
      ...(attribute === undefined ? {} : { attribute }),
      ...(symbols.length === 0 ? {} : { symbols }),
    };
  }
}
