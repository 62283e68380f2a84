// The cluster's budget is the cluster's (DESIGN.md §7 "Cluster"), whichever member leads: a member
// whose clock runs 90 s ahead, or one started with another plan, never makes the cluster spend more
// than the share in a minute. Relays in this process (so a clock can be injected) on a real Redis,
// over real HTTP in front of a controllable upstream that counts every request; visitors ask
// history spans from distinct addresses until the budget refuses them.
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisEngine } from '../../relay/engine/redis';
import type { Relay } from '../../relay/server';
import { exited, startRelayChild } from '../helpers/cluster-processes';
import { startRedis, stopAll, type RedisServer } from './cluster-helpers';
import { get, until } from './helpers';
import { relayBefore } from './relay-before';
import { startUpstream, type UpstreamDouble } from './upstream-double';

/** 20 symbols × 7 and 30 days: more spans than a basic budget can fetch in a minute. */
const SYMBOLS = Array.from({ length: 20 }, (_, i) => `s${i}`);
/** basic: 30 a minute, 80 % of it. */
const SHARE = 24;

let redis: RedisServer;
let upstream: UpstreamDouble;
let prefix = 0;
const running: Relay[] = [];
const children: ChildProcess[] = [];
let asked = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => stopAll());
afterEach(async () => {
  for (const relay of running.splice(0)) await relay.close();
  // Relay processes go before the upstream they hold connections to (Redis stays for the next test).
  const gone = children.splice(0);
  for (const child of gone) child.kill('SIGKILL');
  await Promise.all(gone.map(exited));
  await upstream.close();
});

interface Member {
  relay: Relay;
  engine: RedisEngine;
  /** The engine's log lines (cluster events). */
  logs: { event: string }[];
}

/** A cluster member on the test's Redis keys, its clock `aheadMs` ahead of the machine's. */
async function member(env: Record<string, string>, aheadMs = 0): Promise<Member> {
  const logs: { event: string }[] = [];
  const engine = await RedisEngine.connect({
    url: redis.url,
    prefix: `budget${prefix}:`,
    log: (event, fields) => logs.push({ event, ...fields }),
  });
  const relay = await relayBefore(
    upstream.url,
    { UPSTREAM_KEY: 'k-cluster-budget-0123456789', ...env },
    { engine, now: () => Date.now() + aheadMs },
  );
  running.push(relay);
  return { relay, engine, logs };
}

async function stop(m: Member): Promise<void> {
  running.splice(running.indexOf(m.relay), 1);
  await m.relay.close();
}

/**
 * Visitors ask `symbols`' spans on `relay` (each ask from its own address), each span until it is
 * served or refused 8 times: asked again and again, a span gets the budget kept for demand too.
 */
async function spend(relay: Relay, symbols: string[]): Promise<void> {
  for (const symbol of symbols)
    for (const days of [7, 30])
      for (let i = 0; i < 8; i++) {
        asked += 1;
        const from = `127.5.${Math.floor(asked / 250)}.${1 + (asked % 250)}`;
        if ((await get(relay.url, `/v1/history/${symbol}?days=${days}`, { from })).status === 200) break;
      }
}

async function leads(m: Member): Promise<void> {
  await until(() => m.engine.leader.isLeader, 15_000);
}

/**
 * A fresh upstream; a basic member leads, `second` joins, and the leader's visitors spend more than
 * half the minute's share. `started`: before the first request.
 */
async function firstSpends(second: () => Promise<Member>): Promise<{ first: Member; second: Member; started: number }> {
  prefix += 1;
  upstream = await startUpstream({ symbols: SYMBOLS });
  const started = Date.now();
  const first = await member({ PLAN: 'basic' });
  await leads(first);
  const joined = await second();
  await spend(first.relay, SYMBOLS.slice(0, 10));
  expect(upstream.requests.length).toBeGreaterThan(SHARE / 2);
  return { first, second: joined, started };
}

describe("the cluster's budget", { timeout: 90_000 }, () => {
  it('is not spent again by a member whose clock runs 90 s ahead when it takes the lead', async () => {
    const { first, second: ahead, started } = await firstSpends(() => member({ PLAN: 'basic' }, 90_000));
    await stop(first);
    await leads(ahead);
    await spend(ahead.relay, SYMBOLS.slice(10));
    // All of it within one minute: the whole spend is one minute's.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(upstream.requests.length).toBeLessThanOrEqual(SHARE);
  });

  it('is not spent by the limits of a member started with another plan: it never leads, and says so once', async () => {
    const { first, second: other, started } = await firstSpends(() => member({ PLAN: 'professional' }));

    // The basic member goes; another basic one joins later. The professional one never leads.
    const watched: boolean[] = [];
    other.engine.leader.onChange((isLeader) => watched.push(isLeader));
    await stop(first);
    const b = await member({ PLAN: 'basic' });
    await until(() => b.engine.leader.isLeader || other.engine.leader.isLeader, 15_000);
    // Asked on both: the professional member's visitors are served through the leader.
    await spend(other.relay, SYMBOLS.slice(10, 15));
    await spend(b.relay, SYMBOLS.slice(15));
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(upstream.requests.length).toBeLessThanOrEqual(SHARE);
    expect(watched).toEqual([]);
    expect(b.engine.leader.isLeader).toBe(true);
    expect(other.logs.filter((l) => l.event === 'cluster_budget_differs')).toHaveLength(1);
    expect((await get(other.relay.url, '/v1/history/s0?days=7')).status).toBe(200);
  });

  it('as an operator runs it: a process started with PLAN=professional beside basic ones logs one line and never leads', async () => {
    upstream = await startUpstream({ symbols: SYMBOLS });
    const env = { REDIS_URL: redis.url, UPSTREAM_URL: upstream.url, UPSTREAM_KEY: 'k-cluster-budget-0123456789' };
    const first = await startRelayChild({ ...env, PLAN: 'basic' });
    children.push(first.child);
    await until(() => first.out().includes('"role":"leader"'), 15_000);
    const other = await startRelayChild({ ...env, PLAN: 'professional' });
    children.push(other.child);
    await until(() => other.out().includes('cluster_budget_differs'), 15_000);
    first.child.kill('SIGKILL');
    await exited(first.child);
    // The lock expires (4 s); the professional member looks for it every 250 ms meanwhile, yet the
    // basic one that joins later takes it.
    const next = await startRelayChild({ ...env, PLAN: 'basic' });
    children.push(next.child);
    await until(() => next.out().includes('"role":"leader"'), 20_000);
    expect(other.out()).not.toContain('"role":"leader"');
    const lines = other
      .out()
      .split('\n')
      .filter((l) => l.includes('cluster_budget_differs'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ per_minute: 96, cluster_per_minute: 24 });
  });
});
