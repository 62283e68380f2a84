/**
 * What each failure means, said once; the client, the stream, the poller, the hub, the board and
 * the chart all read it:
 * - `final`: trying the same again cannot help (the key, the plan or the request is wrong). With
 *   `of`, it is final only for that thing: the `symbol`s named (the rest carries on), the
 *   `resource` at that address (a stream keeps trying it: the service may add it), the `setting`.
 * - `retried`: the client tries the request again at once, with capped backoff and jitter.
 * - `transient`: not worth an immediate retry, but the next poll, reconnect or history retry may
 *   succeed; fresh data clears it from the board.
 * And the Persian message for people. The comment on each code says when it happens (the README's
 * error table is generated from this one: scripts/error-policy.mjs).
 */
export const ERROR_POLICY = {
  /** 401 */
  unauthorized: { policy: 'final', fa: 'کلید دسترسی (API key) نامعتبر است یا منقضی شده است.' },
  /** 403: the key is restricted to other domains or addresses, or the plan does not allow it */
  forbidden: { policy: 'final', fa: 'این کلید اجازهٔ این درخواست را ندارد (دامنه یا طرح اشتراک).' },
  /** 400, 422 */
  bad_request: { policy: 'final', fa: 'درخواست نامعتبر بود.' },
  /** 404 */
  not_found: { policy: 'final', of: 'resource', fa: 'دادهٔ درخواستی پیدا نشد.' },
  /** the service does not know a symbol (404 naming it, or missing from an answer) */
  unknown_symbol: { policy: 'final', of: 'symbol', fa: 'این نماد در سرویس قیمت وجود ندارد.' },
  /** an attribute value the element cannot use */
  invalid_attribute: { policy: 'final', of: 'setting', fa: 'مقدار یکی از تنظیمات نامعتبر است؛ مقدار پیش‌فرض به کار رفت.' },
  /** no answer at all */
  network: { policy: 'retried', fa: 'اتصال به سرویس قیمت برقرار نشد؛ دوباره تلاش می‌شود.' },
  /** 5xx */
  server: { policy: 'retried', fa: 'سرویس قیمت موقتاً در دسترس نیست؛ دوباره تلاش می‌شود.' },
  /** no answer within 10 s */
  timeout: { policy: 'transient', fa: 'پاسخ سرویس قیمت بیش از حد طول کشید.' },
  /** 429, honouring `Retry-After` */
  rate_limited: { policy: 'transient', fa: 'تعداد درخواست‌ها از سقف طرح بیشتر شد؛ کمی بعد دوباره تلاش می‌شود.' },
  /** a body that cannot be read or is not valid */
  bad_response: { policy: 'transient', fa: 'پاسخ سرویس قیمت قابل خواندن نبود.' },
} as const satisfies Record<string, { policy: 'final' | 'retried' | 'transient'; of?: 'symbol' | 'resource' | 'setting'; fa: string }>;

/** Error codes of `price-board-error` (DESIGN.md section 2). */
export type ErrorCode = keyof typeof ERROR_POLICY;

type Policy = { policy: string; of?: string };
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
  /** Persian message for people. */
  readonly messageFa: string;
  /** Extra machine-readable facts, e.g. `{ symbols: [...] }` for `unknown_symbol`. */
  readonly data?: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    init: { status?: number; retryAfterMs?: number; messageFa?: string; data?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = code;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.messageFa = init.messageFa ?? ERROR_POLICY[code].fa;
    this.data = init.data;
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
