/** Error codes of `price-board-error` (DESIGN.md section 2). */
export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'rate_limited'
  | 'not_found'
  | 'bad_request'
  | 'server'
  | 'network'
  | 'timeout'
  | 'bad_response'
  | 'unknown_symbol'
  | 'invalid_attribute';

/** Persian messages for people; one per code. */
export const PERSIAN_MESSAGES: Readonly<Record<ErrorCode, string>> = {
  unauthorized: 'کلید دسترسی (API key) نامعتبر است یا منقضی شده است.',
  forbidden: 'این کلید اجازهٔ این درخواست را ندارد (دامنه یا طرح اشتراک).',
  rate_limited: 'تعداد درخواست‌ها از سقف طرح بیشتر شد؛ کمی بعد دوباره تلاش می‌شود.',
  not_found: 'دادهٔ درخواستی پیدا نشد.',
  bad_request: 'درخواست نامعتبر بود.',
  server: 'سرویس قیمت موقتاً در دسترس نیست؛ دوباره تلاش می‌شود.',
  network: 'اتصال به سرویس قیمت برقرار نشد؛ دوباره تلاش می‌شود.',
  timeout: 'پاسخ سرویس قیمت بیش از حد طول کشید.',
  bad_response: 'پاسخ سرویس قیمت قابل خواندن نبود.',
  unknown_symbol: 'این نماد در سرویس قیمت وجود ندارد.',
  invalid_attribute: 'مقدار یکی از تنظیمات نامعتبر است؛ مقدار پیش‌فرض به کار رفت.',
};

/** Codes after which retrying the same request cannot help. */
export const FINAL_CODES: ReadonlySet<ErrorCode> = new Set([
  'unauthorized',
  'forbidden',
  'not_found',
  'bad_request',
  'unknown_symbol',
  'invalid_attribute',
]);

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
    this.messageFa = init.messageFa ?? PERSIAN_MESSAGES[code];
    this.data = init.data;
  }

  get final(): boolean {
    return FINAL_CODES.has(this.code);
  }

  toDetail(): ErrorDetail {
    return this.status === undefined
      ? { code: this.code, message: this.messageFa }
      : { code: this.code, message: this.messageFa, status: this.status };
  }
}
