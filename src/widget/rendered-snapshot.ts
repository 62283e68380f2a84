/**
 * The quotes of the relay's render (DESIGN.md §13). Beside the declarative shadow root, in light
 * DOM, the fragment carries them as `<script type="application/json">` (data, never executed):
 * `{ event_id, unknown?, data: { at, delay_seconds, quotes } }`, `data` shaped as `/v1/prices`'s
 * answer, `unknown` the ids the relay does not serve (never asked for: `live/hub.ts` `startFrom`).
 */
import { parsePricesBody } from '../api/validate';
import type { HeldSnapshot } from '../live/hub';
import { SYMBOL_ID } from '../shared/attribute-table';

/**
 * How old (from its `at`) a snapshot may be and still stand for the prices: the default poll
 * interval. The relay's render is cached for `max-age=2, stale-while-revalidate=30`, so a page
 * served and loaded normally is well within it; an older one (a page cache, a slow load) is shown
 * until the prices answer, as a bare element's skeleton would be.
 */
export const FRESH_SNAPSHOT_MS = 30_000;

/**
 * The fresh snapshot of `element`'s rendered shadow root, if it has one; undefined when it is
 * missing, cut, malformed or older than {@link FRESH_SNAPSHOT_MS} (then the element fetches).
 */
export function renderedSnapshot(element: HTMLElement, now = Date.now()): HeldSnapshot | undefined {
  const script = element.querySelector(':scope > script[type="application/json"]');
  if (!script) return undefined;
  try {
    const body = JSON.parse(script.textContent ?? '') as { event_id?: unknown; unknown?: unknown };
    const prices = parsePricesBody(body);
    const age = now - Date.parse(prices.at);
    if (typeof body.event_id !== 'string' || !(age < FRESH_SNAPSHOT_MS)) return undefined;
    return {
      quotes: prices.quotes,
      meta: { at: prices.at, delaySeconds: prices.delay_seconds },
      eventId: body.event_id,
      unknown: unknownOf(body.unknown),
    };
  } catch {
    return undefined; // not the relay's, or cut: the element fetches as usual
  }
}

/** The snapshot's `unknown`: the ids the relay does not serve, when it is a list of well-formed ids. */
function unknownOf(ids: unknown): string[] | undefined {
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string' && SYMBOL_ID.test(id)) ? ids : undefined;
}

/** Over the relay's render: `live` starts from `element`'s fresh snapshot, if it has one. */
export function startFromRender(element: HTMLElement, live: { startFrom(snapshot: HeldSnapshot): void }): void {
  const snapshot = renderedSnapshot(element);
  if (snapshot) live.startFrom(snapshot);
}
