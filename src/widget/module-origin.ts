/** The service address when `base-url` is not set: where this module was loaded from. */
function moduleOrigin(): string {
  try {
    const origin = new URL(import.meta.url).origin;
    if (origin !== 'null') return origin;
  } catch {
    // not a URL we can read (e.g. a bundler's virtual module): use the page's origin
  }
  return globalThis.location?.origin ?? '';
}

/** Every widget's default `base-url` (one module, so one origin for all of them). */
export const DEFAULT_BASE_URL = moduleOrigin();
