/**
 * What the widgets use: `subscribe(options, symbols, listener)`. Widgets with the same service,
 * key and stream settings share one hub: one stream connection and one `/v1/prices` request per
 * tick for the union of their symbols (DESIGN.md §6, sharing).
 *
 * The hubs' code (stream, polling, retries, sharing: `hubs.ts`) is a lazy chunk, out of the
 * initial module. Until it has loaded, the subscriptions of one connection wait in a group, which
 * sends their one first `/v1/prices` request (and starts the chunk's import beside it), shows the
 * answer as soon as it comes, and hands the subscriptions and that request to the hub once the
 * chunk is there. So the first rows never wait for the chunk, and nothing is asked for twice.
 */
import { startTimer } from '../api/timer';
import { SYMBOL_ID } from '../shared/attributes';
import { PriceBoardError } from '../shared/errors';
import type { PricesData, Quote } from '../shared/types';
import { connectionOf, normalizeSymbols } from './connection';
import { requestFirstPrices } from './first-prices';
import type { EarlyGroup, EarlySubscription, HubListener, HubOptions, Subscription } from './hub-types';
import { soon } from './page-ready';
import { safely } from './safely';

export type { HubListener, HubOptions, QuotesMeta, Subscription } from './hub-types';

type Hubs = typeof import('./hubs');

/** The hubs' chunk, once loaded: from then on subscriptions go straight to it. */
let hubs: Hubs | undefined;
/** The chunk's import under way: resolves once the subscriptions are handed over (or it failed). */
let loading: Promise<void> | undefined;
/** After the chunk failed to load, it is asked for again this much later (or on the next flush). */
const RELOAD_MS = 5_000;
let cancelReload: (() => void) | undefined;

const groups = new Map<string, EarlyGroup>();

/**
 * Subscribes `listener` to quotes of `symbols`. Right after (in a microtask) it gets the status,
 * the quotes already known and the symbols known to be missing; then every applied change.
 * Subscriptions made in the same tick share one `/v1/prices` request and one stream.
 */
export function subscribe(options: HubOptions, symbols: string[], listener: HubListener): Subscription {
  if (hubs) return hubs.subscribe(options, symbols, listener);
  const connection = connectionOf(options);
  let group = groups.get(connection.key);
  if (!group) groups.set(connection.key, (group = { connection, members: new Set(), queued: false }));
  const owner = group;
  const early: EarlySubscription = { options, symbols: normalizeSymbols(symbols), listener, shown: new Set() };
  owner.members.add(early);
  if (!owner.queued) {
    owner.queued = true;
    soon(() => flushGroup(owner));
  }
  return {
    setSymbols(next) {
      if (early.inner) early.inner.setSymbols(next);
      else early.symbols = normalizeSymbols(next);
    },
    refresh: () => (early.inner ? early.inner.refresh() : load(false).then(() => early.inner?.refresh())),
    close() {
      if (early.inner) {
        early.inner.close();
        return;
      }
      owner.members.delete(early);
      // Not at once: an element moved in the DOM unsubscribes and subscribes again in one tick.
      if (owner.members.size === 0) queueMicrotask(() => drop(owner));
    },
  };
}

/** Sends now the first requests that subscriptions made so far in this task would send in a microtask. */
export function flushSubscriptions(): void {
  for (const group of [...groups.values()]) flushGroup(group);
  hubs?.flushSubscriptions();
}

/** Number of hubs (and groups waiting for one) alive (tests: 0 once every subscription is closed). */
export function hubCount(): number {
  return groups.size + (hubs?.hubCount() ?? 0);
}

/** The group's one first request, for the union of its members' symbols; the chunk's import beside it. */
function flushGroup(group: EarlyGroup): void {
  if (!group.queued || groups.get(group.connection.key) !== group) return;
  group.queued = false;
  // The request first, then the chunks' imports: the rows wait for the request only.
  if (!group.first) sendFirst(group); // else members that came later: the hub asks for what it did not cover
  void load(group.connection.mode !== 'off');
}

function sendFirst(group: EarlyGroup): void {
  const union = new Set<string>();
  // Malformed ids are never sent (the hub reports them as unknown).
  for (const member of group.members) for (const s of member.symbols) if (SYMBOL_ID.test(s)) union.add(s);
  const [member] = group.members;
  if (union.size === 0 || !member) return;
  const first = (group.first = requestFirstPrices(member.options, group.connection, [...union]));
  first.answer.then(
    (data) => show(group, data),
    () => {},
  );
}

/** The first answer came before the hub: its quotes are shown now (the hub will take them over). */
function show(group: EarlyGroup, data: PricesData): void {
  if (hubs || groups.get(group.connection.key) !== group) return;
  // The newest per symbol, as the hub's store would keep (an answer may hold one twice).
  const newest = new Map<string, Quote>();
  for (const q of data.quotes) {
    const held = newest.get(q.symbol);
    if (!held || Date.parse(q.updated_at) > Date.parse(held.updated_at)) newest.set(q.symbol, q);
  }
  const quotes = [...newest.values()];
  const meta = { delaySeconds: data.delay_seconds, at: data.at };
  for (const member of group.members) {
    const mine = quotes.filter((q) => member.symbols.includes(q.symbol));
    for (const q of mine) member.shown.add(q);
    if (mine.length > 0) safely(() => member.listener.quotes(mine, meta));
  }
}

function drop(group: EarlyGroup): void {
  if (group.members.size > 0 || groups.get(group.connection.key) !== group) return;
  groups.delete(group.connection.key);
  group.first?.abort();
  if (groups.size === 0) cancelReload?.();
}

/**
 * Starts the import of the hubs' chunk (and of the stream's, which its hubs will want); resolves
 * once the waiting subscriptions are handed over, or the import failed (they are told; it is
 * tried again later).
 */
function load(transport: boolean): Promise<void> {
  if (transport) import('./transport').catch(() => {}); // the hub asks again, and reports a failure
  if (hubs) return Promise.resolve();
  if (loading) return loading;
  cancelReload?.();
  return (loading = import('./hubs').then(handOver, (cause: unknown) => {
    loading = undefined;
    const error = new PriceBoardError('network', 'Live updates failed to load', { cause });
    for (const group of groups.values()) for (const member of group.members) safely(() => member.listener.error(error));
    if (groups.size > 0) cancelReload = startTimer(() => void (groups.size > 0 && load(false)), RELOAD_MS);
  }));
}

/** The chunk is here: every waiting subscription goes to its hub, the group's first request with it. */
function handOver(module: Hubs): void {
  hubs = module;
  loading = undefined;
  const waiting = [...groups.values()];
  groups.clear();
  module.adopt(waiting);
}
