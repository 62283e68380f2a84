import { ERROR_MESSAGES } from './error-messages';

/**
 * What each failure means, said once; the client, the stream, the poller, the hub, the board and
 * the chart all read it:
 * - `for: 'developer'`: a visitor of the page cannot fix it (the key, the domain, the request):
 *   the widget shows the visitor's words (`error-messages.ts`, `visitor`); the detail goes to
 *   `price-board-error` and to one `console.warn`.
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
  unknown_symbol: { policy: 'final', of: 'symbol' },
  /** an attribute value the element cannot use */
  invalid_attribute: { policy: 'final', of: 'setting' },
  /** no answer at all (from the service, or for one of the widget's own lazily loaded code chunks) */
  network: { policy: 'retried' },
  /** 5xx */
  server: { policy: 'retried' },
  /** no answer within 10 s */
  timeout: { policy: 'transient' },
  /** 429, honouring `Retry-After` */
  rate_limited: { policy: 'transient' },
  /** a body that cannot be read or is not valid */
  bad_response: { policy: 'transient' },
} as const satisfies Record<
  string,
  { policy: 'final' | 'retried' | 'transient'; of?: 'symbol' | 'resource' | 'setting'; for?: 'developer' }
>;

/** Error codes of `price-board-error` (DESIGN.md section 2). */
export type ErrorCode = keyof typeof ERROR_POLICY;

/** The Persian message of each code, and the sentences naming unknown symbols (one, several). */
export type ErrorMessages = Readonly<Record<ErrorCode | 'visitor' | 'unknownOne' | 'unknownMany', string>>;
/** The table (`error-messages.ts`), checked here to name every code. */
const messages: ErrorMessages = ERROR_MESSAGES;

/**
 * What a widget shows of an `unknown_symbol` error naming `ids`: each id bidi-isolated (FSI … PDI,
 * so `foo_bar` and `gold_19` keep their order in RTL text), singular or plural.
 */
export function unknownSymbolsText(error: PriceBoardError, ids: readonly unknown[]): string {
  const sentence = ids.length === 1 ? messages.unknownOne : messages.unknownMany;
  return sentence.replace('{}', ids.map((id) => `\u2068${String(id)}\u2069`).join('، '));
}

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
  /** Persian, for people. */
  message: string;
  status?: number;
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

  /** Persian message for people: its own, else its code's (`error-messages.ts`). */
  get messageFa(): string {
    return this.#messageFa ?? messages[this.code];
  }

  /** Only the site's developer can fix it (see `ERROR_POLICY`): visitors read other words. */
  get forDeveloper(): boolean {
    return policyOf(this).for === 'developer';
  }

  /** What the widget shows of it: {@link messageFa}, or the visitor's words (`forDeveloper`). */
  get shownFa(): string {
    return this.forDeveloper ? messages.visitor : this.messageFa;
  }

  /** Retrying cannot help (see `ERROR_POLICY`). */
  get final(): boolean {
    return ERROR_POLICY[this.code].policy === 'final';
  }

  toDetail(): ErrorDetail {
    return this.status === undefined
      ? { code: this.code, message: this.messageFa }
      : { code: this.code, message: this.messageFa, status: this.status };
  }
}
