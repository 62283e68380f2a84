/**
 * The Persian message of each error code (`errors.ts`, which checks that every code has one), for
 * people: sent as `price-board-error`'s `message`, and shown in `part="error"` but for the codes
 * whose `for` in ERROR_POLICY gives visitors the `visitor` words instead.
 */
export const ERROR_MESSAGES = {
  unauthorized: 'کلید دسترسی (API key) نامعتبر است یا منقضی شده است.',
  forbidden: 'این کلید اجازهٔ این درخواست را ندارد (دامنه یا طرح اشتراک).',
  bad_request: 'درخواست نامعتبر بود.',
  not_found: 'دادهٔ درخواستی پیدا نشد.',
  unknown_symbol: 'این نماد در سرویس قیمت وجود ندارد.',
  invalid_attribute: 'مقدار یکی از تنظیمات نامعتبر است؛ مقدار پیش‌فرض به کار رفت.',
  network: 'اتصال به سرویس قیمت برقرار نشد؛ دوباره تلاش می‌شود.',
  server: 'سرویس قیمت موقتاً در دسترس نیست؛ دوباره تلاش می‌شود.',
  timeout: 'پاسخ سرویس قیمت بیش از حد طول کشید.',
  rate_limited: 'تعداد درخواست‌ها از سقف طرح بیشتر شد؛ کمی بعد دوباره تلاش می‌شود.',
  bad_response: 'پاسخ سرویس قیمت قابل خواندن نبود.',
  // shown instead of the message of a failure only the site's developer can fix, or when no symbol is known (`for` in ERROR_POLICY)
  visitor: 'قیمت‌ها فعلاً در دسترس نیست.',
} as const;
