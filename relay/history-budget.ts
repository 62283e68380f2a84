/**
 * The history budget (DESIGN.md §7.1, history under a botnet): the part of the upstream budget that
 * history and the catalog may spend (what the budget keeps for quotes left out), split by two
 * policies: each visitor address's share ({@link AddressShares}) and the part kept for the spans in
 * demand ({@link SpanDemand}).
 */
import { AddressShares } from './address-shares';
import type { Budget } from './budget';
import { SpanDemand } from './span-demand';

export class HistoryBudget {
  /** Per visitor address: its share of the misses' requests. */
  readonly addresses: AddressShares;
  /** Per span: whether a request for it may start. */
  readonly spans: SpanDemand;

  /** Without a budget (tests), nothing is refused. */
  constructor(budget: Budget | undefined, now: () => number) {
    const perMinute = budget ? budget.perMinute - budget.reserve : Infinity;
    this.addresses = new AddressShares(perMinute, now);
    this.spans = new SpanDemand(perMinute, now);
  }
}
