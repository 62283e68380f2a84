/**
 * The start batch: elements connected in the same task start together: each reads its settings and subscribes in
 * one microtask queued ahead of Lit's first updates, then every hub sends its one `/v1/prices`
 * request for all of them at once (boards, tickers and converters alike: DESIGN.md §6, sharing).
 */
import { flushSubscriptions } from './hub';
import { pageGlobal } from './page-global';
import { afterOurScripts } from './page-scripts';

/** What an element does at start; it may return what to do once the requests are out. */
export type Start = () => (() => void) | void;

/** Every copy of this module queues here, so that the first to run starts them all. */
const starting = pageGlobal<Start[]>('price-board/starting/1', []);

function startAll(): void {
  const after = starting.splice(0).map((start) => start());
  flushSubscriptions();
  for (const then of after) then?.();
}

/** Runs `start` in this task's start microtask (queued by the first element connected in it). */
export function startTogether(start: Start): void {
  if (starting.length === 0) afterOurScripts(startAll);
  starting.push(start);
}
