// The relay as a cluster (DESIGN.md §7 "Cluster"): three relay processes, one Redis, the sandbox
// as the upstream. Each relay spends upstream under its own key suffix (`enterprise-key:<name>`),
// so the sandbox's request log says which process spent what.
import { createClient } from '@redis/client';
import { describe, expect, it } from 'vitest';
import { clusterBed, startSilentPath, leaderOf, type RelayProcess, type SilentPath } from './cluster-helpers';
import { control, get, Stream, until, upstreamRequests, visitorAddress } from './helpers';
import { tehranDay } from '../../relay/budget';
import type { RequestEntry } from '../../sandbox/stats';

const bed = clusterBed();
let relays: RelayProcess[];

/** Starts the three relays (`env` adds to their configuration). */
async function cluster(env: Record<string, string> = {}): Promise<void> {
  relays = await bed.relays(['a', 'b', 'c'], env);
}

const keyOf = (relay: RelayProcess): string => `enterprise-key:${'abc'[relays.indexOf(relay)]}`;
const price = (e: { data: string }): string => (JSON.parse(e.data) as { price: string }).price;

/** The leader, once the cluster holds the upstream's first quotes (so no later test step races them). */
async function settled(): Promise<RelayProcess> {
  const leader = await leaderOf(relays);
  for (const r of relays) expect((await get(r.url, '/v1/prices?symbols=usd')).status).toBe(200);
  return leader;
}

async function openOn(relay: RelayProcess, symbols = 'usd'): Promise<Stream> {
  const stream = new Stream(relay.url, symbols);
  bed.streams.push(stream);
  await stream.event((e) => e.event === 'quotes');
  return stream;
}

/** The upstream's usd price becomes `to` (a change every leader's stream carries). */
async function setUsd(to: string): Promise<void> {
  await control(bed.sandbox.url, 'market', { set: [{ symbol: 'usd', price: to }] });
}

/** Once each of `clients` received usd at `to`. */
async function everyClientHears(clients: Stream[], to: string): Promise<void> {
  for (const c of clients) await c.event((e) => e.event === 'quote' && price(e) === to);
}

/** The three relays, reaching Redis through `path`, settled, with a usd client on each. */
async function clusterThrough(path: SilentPath): Promise<Stream[]> {
  await cluster({ REDIS_URL: path.url });
  await settled();
  return Promise.all(relays.map((r) => openOn(r)));
}

/** Once every relay's /healthz says Redis is away (503). */
async function everyAway(): Promise<void> {
  await until(
    async () => (await Promise.all(relays.map((r) => r.health()))).every((h) => h.status === 503 && h.redis === 'away'),
    15_000,
  );
}

/** The most requests in any 60 s of `log` (the plan's sliding minute). */
function busiestMinute(log: RequestEntry[]): number {
  const times = log.map((r) => Date.parse(r.at)).sort((a, b) => a - b);
  return Math.max(0, ...times.map((t, i) => times.filter((u, j) => j >= i && u < t + 60_000).length));
}

/** The test's own key at the upstream: its requests are not the relays' spending. */
const DIRECT_KEY = 'enterprise-key:direct';

/** The upstream's answer for `path`, asked directly (as a relay would get it). */
async function upstreamBody(path: string): Promise<unknown> {
  return (await fetch(`${bed.sandbox.url}${path}`, { headers: { 'X-API-Key': DIRECT_KEY } })).json();
}

/** The keys of the relays' upstream requests on `path` (a path without its query), in order. */
async function spentOn(path: string): Promise<(string | null)[]> {
  return (await upstreamRequests(bed.sandbox)).filter((r) => r.path === path && r.key !== DIRECT_KEY).map((r) => r.key);
}

/**
 * The upstream's answers for `path` just before and just after `served` (which a relay answered in
 * between): a history ends at the current 15-minute slot, so a relay that fetched it a moment
 * before or after the test may rightly hold the other side of a slot's turn.
 */
async function upstreamAround<T>(path: string, served: () => Promise<T>): Promise<{ served: T; upstream: unknown[] }> {
  const before = await upstreamBody(path);
  const answer = await served();
  return { served: answer, upstream: [before, await upstreamBody(path)] };
}

// Three processes start and stop per test: on a busy 2-core machine that alone takes a while.
describe('a cluster of three relays', { timeout: 90_000 }, () => {
  it('spends upstream from one process only, and brings a change to the clients of all three', async () => {
    await cluster();
    const leader = await leaderOf(relays);
    // A follower asked first, before anyone asked the leader: the leader filled the shared catalog
    // as it took the lead, and followers never ask upstream themselves.
    const follower = relays.find((r) => r !== leader)!;
    expect((await get(follower.url, '/v1/symbols')).status).toBe(200);
    await settled();
    const clients = await Promise.all(relays.map((r) => openOn(r)));
    for (const r of relays) expect((await get(r.url, '/v1/prices?symbols=usd,eur')).status).toBe(200);

    await setUsd('1234560');
    const got = await Promise.all(clients.map((c) => c.event((e) => e.event === 'quote')));
    expect(got.map(price)).toEqual(['1234560', '1234560', '1234560']);
    // One cluster-wide id for one change, whichever process a client is on.
    expect(new Set(got.map((e) => e.id)).size).toBe(1);

    const log = await upstreamRequests(bed.sandbox);
    expect(new Set(log.map((r) => r.key))).toEqual(new Set([keyOf(leader)]));
    expect(log.filter((r) => r.path === '/v1/stream')).toHaveLength(1);
    for (const r of relays) expect(await r.metric('relay_leader')).toBe(r === leader ? 1 : 0);
    expect(await relays[0]!.metric('relay_redis_connected')).toBe(1);
    // The budget is counted once for the cluster: every process reports the same spend.
    const spent = await Promise.all(relays.map((r) => r.metric('relay_budget_spent_minute')));
    expect(new Set(spent)).toEqual(new Set([log.length]));
  });

  it('answers a history span nobody fetched yet on a follower: it asks the leader, which spends one request for all askers', async () => {
    await cluster();
    const leader = await settled();
    const followers = relays.filter((r) => r !== leader);
    const path = '/v1/history/eur?days=7';
    // Concurrent askers on both followers (and the leader): one upstream request between them.
    const { served: answers, upstream } = await upstreamAround(path, () =>
      Promise.all([...followers, ...followers, leader].map((r) => get(r.url, path))),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(upstream).toContainEqual(JSON.parse(answer.body));
    }
    expect(await spentOn('/v1/history/eur')).toEqual([keyOf(leader)]);
    // Later askers are answered from the shared cache.
    expect((await get(followers[1]!.url, path)).status).toBe(200);
    expect(await spentOn('/v1/history/eur')).toEqual([keyOf(leader)]);
    // Any other days on a follower: as the service answers it, cut from the enclosing span (30
    // days), which the leader fetched once for both.
    for (const follower of followers) {
      const fortnight = await upstreamAround('/v1/history/eur?days=14', () =>
        get(follower.url, '/v1/history/eur?days=14'),
      );
      expect(fortnight.upstream).toContainEqual(JSON.parse(fortnight.served.body));
    }
    expect(await spentOn('/v1/history/eur')).toEqual([keyOf(leader), keyOf(leader)]);
  });

  it('survives SIGKILL of the leader: another takes over, and clients of the dead one resume elsewhere with nothing lost', async () => {
    await cluster();
    const leader = await settled();
    const survivors = relays.filter((r) => r !== leader);
    const orphan = await openOn(leader);
    const kept = await Promise.all(survivors.map((r) => openOn(r)));
    await setUsd('1000010');
    const before = await orphan.event((e) => e.event === 'quote');
    await Promise.all(kept.map((s) => s.event((e) => e.id === before.id)));

    leader.kill('SIGKILL');
    await until(() => orphan.ended, 10_000);
    // Changes while no process leads: the next leader's upstream stream starts with them.
    await setUsd('1000020');
    const next = await leaderOf(survivors, 10_000);
    expect(next).not.toBe(leader);
    // The new leader's upstream stream is open once the change made meanwhile reached a client.
    await kept[0]!.event((e) => e.event === 'quote' && price(e) === '1000020');
    await setUsd('1000030');

    // The dead process's client comes back on a survivor with its last id: it gets exactly what it
    // missed, as events (not a fresh snapshot), in order.
    const resumed = new Stream(survivors[0]!.url, 'usd', { lastEventId: before.id });
    bed.streams.push(resumed);
    await resumed.event((e) => price(e) === '1000030');
    expect(resumed.events.map((e) => e.event)).not.toContain('quotes');
    expect(resumed.events.map(price)).toEqual(['1000020', '1000030']);
    for (const s of kept) {
      await s.event((e) => e.event === 'quote' && price(e) === '1000030');
      expect(s.events.filter((e) => e.event === 'quote').map(price)).toEqual(['1000010', '1000020', '1000030']);
    }
    // From the new leader's key only, after the takeover.
    const log = await upstreamRequests(bed.sandbox);
    const killedAt = log.findIndex((r) => r.key === keyOf(next));
    expect(log.slice(killedAt).every((r) => r.key === keyOf(next))).toBe(true);
  });

  it('never lets a paused leader spend beside its successor (SIGSTOP / SIGCONT)', async () => {
    await cluster();
    const leader = await settled();
    const others = relays.filter((r) => r !== leader);
    // It has spent (its upstream stream is open) when it is paused.
    await until(
      async () => (await upstreamRequests(bed.sandbox)).some((r) => r.key === keyOf(leader) && r.path === '/v1/stream'),
      10_000,
    );
    leader.kill('SIGSTOP');
    const next = await leaderOf(others, 10_000);
    const clients = await Promise.all(others.map((r) => openOn(r)));
    leader.kill('SIGCONT');
    await until(async () => (await leader.health()).role === 'follower', 10_000);
    // It serves again, from the cluster, as a follower.
    const back = await openOn(leader);
    await setUsd('1000040');
    for (const c of [...clients, back]) await c.event((e) => e.event === 'quote' && price(e) === '1000040');

    // The upstream's log: the old leader's requests all came before the new leader's first.
    const log = await upstreamRequests(bed.sandbox);
    const firstOfNext = log.findIndex((r) => r.key === keyOf(next));
    expect(firstOfNext).toBeGreaterThan(0);
    expect(log.slice(firstOfNext).filter((r) => r.key === keyOf(leader))).toEqual([]);
  });

  it('keeps serving while Redis is away, reports it, and recovers without a burst of upstream requests', async () => {
    await cluster();
    await settled();
    const clients = await Promise.all(relays.map((r) => openOn(r)));
    await bed.redis.stop();
    await everyAway();
    for (const r of relays) {
      expect((await get(r.url, '/v1/prices?symbols=usd')).status).toBe(200);
      expect(await r.metric('relay_redis_connected')).toBe(0);
    }
    const beforeRestart = (await upstreamRequests(bed.sandbox)).length;

    await bed.redis.restart();
    await leaderOf(relays, 15_000);
    await until(async () => (await Promise.all(relays.map((r) => r.health()))).every((h) => h.status === 200), 15_000);
    await setUsd('1000050');
    await everyClientHears(clients, '1000050');
    // Each process wrote back what it held, so the new leader's first upstream snapshot changed
    // nothing: clients got the one real change, not a replay of every symbol.
    for (const c of clients) expect(c.events.filter((e) => e.event === 'quote').map(price)).toEqual(['1000050']);
    expect(clients.every((c) => !c.ended)).toBe(true);
    // Rejoining costs one upstream stream (and at most the catalog), not one per process or a retry storm.
    const after = (await upstreamRequests(bed.sandbox)).slice(beforeRestart);
    expect(after.length).toBeLessThanOrEqual(2);
    expect(after.filter((r) => r.path === '/v1/stream')).toHaveLength(1);
  });

  it('keeps serving while Redis hangs with its connections open, reports it, and recovers', async () => {
    await cluster();
    await settled();
    const clients = await Promise.all(relays.map((r) => openOn(r)));
    bed.redis.freeze();
    try {
      // A change while Redis hangs: the leader cannot write it, and keeps it for when Redis answers.
      await setUsd('1000060');
      await everyAway();
      // Every member answers from what it holds: prices and the catalog; a history span it never
      // fetched, at worst a 503 or 429 to try again later (what the member can still spend alone).
      for (const r of relays) {
        expect((await get(r.url, '/v1/prices?symbols=usd')).status).toBe(200);
        expect((await get(r.url, '/v1/symbols')).status).toBe(200);
        const history = await get(r.url, '/v1/history/eur?days=365');
        if (history.status !== 200) {
          expect([429, 503]).toContain(history.status);
          expect(Number(history.headers['retry-after'])).toBeGreaterThan(0);
        }
        expect(await r.metric('relay_redis_connected')).toBe(0);
      }
    } finally {
      bed.redis.thaw();
    }
    await leaderOf(relays, 15_000);
    await until(async () => (await Promise.all(relays.map((r) => r.health()))).every((h) => h.status === 200), 15_000);
    await everyClientHears(clients, '1000060');
    await setUsd('1000070');
    await everyClientHears(clients, '1000070');
  });

  it('offers Redis again a change it refused for a moment: the clients of all three hear it with no later change', async () => {
    await cluster();
    await settled();
    const clients = await Promise.all(relays.map((r) => openOn(r)));
    const admin = createClient({ url: bed.redis.url });
    const monitor = admin.duplicate();
    await Promise.all([admin.connect(), monitor.connect()]);
    try {
      // Redis refuses every write (no replica to write to), for a moment shorter than the leader's
      // lease: the leader keeps leading, and its write of the change fails.
      let offered = false;
      await monitor.monitor((line) => {
        if (line.includes('1000085')) offered = true;
      });
      await admin.configSet('min-replicas-to-write', '1');
      try {
        await setUsd('1000085');
        await until(() => offered, 10_000);
      } finally {
        await admin.configSet('min-replicas-to-write', '0');
      }
      // The upstream sent the change once; the leader offers it again and every member's clients hear it.
      await everyClientHears(clients, '1000085');
    } finally {
      await Promise.all([admin.close(), monitor.close()]);
    }
  });

  it('says its data is stale while Redis refuses its writes (out of memory), and serves the change once Redis takes it', async () => {
    await cluster();
    const leader = await settled();
    const clients = await Promise.all(relays.map((r) => openOn(r)));
    const admin = createClient({ url: bed.redis.url });
    await admin.connect();
    try {
      // Every write that needs memory is refused; the leader keeps its lease (that needs none).
      await admin.configSet('maxmemory-policy', 'noeviction');
      await admin.configSet('maxmemory', '1');
      await setUsd('1000088');
      // The change is held, not served: the leader says so on /healthz and on what it serves.
      await until(async () => (await leader.health()).status === 503, 10_000);
      expect((await leader.health()).role).toBe('leader');
      const prices = await get(leader.url, '/v1/prices?symbols=usd');
      expect(prices.status).toBe(200);
      expect(prices.headers.warning).toMatch(/^110/);
    } finally {
      await admin.configSet('maxmemory', '0');
      await admin.close();
    }
    await everyClientHears(clients, '1000088');
    await until(async () => (await leader.health()).status === 200, 10_000);
  });

  it('hears the cluster again when its connections to Redis go silent without closing (a NAT or firewall that forgot them)', async () => {
    const path = await startSilentPath(bed.redis.port);
    try {
      const clients = await clusterThrough(path);
      path.silence();
      // Every member finds both of its connections silent by their PINGs, makes them again (the
      // subscriptions too) and catches up: a change made before they notice (the leader offers it to
      // Redis again) and one after reach the clients of all three.
      await setUsd('1000090');
      await everyClientHears(clients, '1000090');
      await setUsd('1000091');
      await everyClientHears(clients, '1000091');
      expect(clients.every((c) => !c.ended)).toBe(true);
    } finally {
      await path.close();
    }
  });

  it('recovers when the path to Redis stays silent for a while, new connections too: a handshake that never ends is dropped', async () => {
    const path = await startSilentPath(bed.redis.port);
    try {
      const clients = await clusterThrough(path);
      path.silence({ alsoNew: true });
      await everyAway();
      // Members have made their connections again on the silent path (two a member, in all): those
      // handshakes hang.
      await until(() => path.silencedNew >= relays.length * 2, 15_000);
      path.speak();
      await until(
        async () => (await Promise.all(relays.map((r) => r.health()))).every((h) => h.status === 200),
        20_000,
      );
      await setUsd('1000095');
      await everyClientHears(clients, '1000095');
    } finally {
      await path.close();
    }
  });

  it.each([
    ['a Redis restart that lost everything', 'restart'],
    ['a FLUSHALL, its connections up', 'flushall'],
  ] as const)('keeps the plan across %s: the budget is written back before anyone leads', async (_name, loss) => {
    // 12 a minute: the cluster may spend 9, history and symbols 7 (2 kept for quotes).
    await cluster({ UPSTREAM_RPM: '12' });
    const leader = await settled();
    // History nobody fetched yet, span after span (each ask from its own visitor: one address may
    // spend only its share), until the budget refuses one. Past half of the history budget only a
    // span in demand is fetched: a refused span is asked again, as visitors would, until it is.
    let refused;
    for (let i = 0, ask = 0; !refused; i++) {
      const path = `/v1/history/${['usd', 'aed', 'gbp', 'try'][i % 4]}?days=${[7, 30, 365][Math.floor(i / 4) % 3]}`;
      for (let again = 0; again < 10; again++) {
        const answer = await get(leader.url, path, { from: visitorAddress(ask++) });
        if (answer.status === 200) break;
        expect(answer.status).toBe(429);
        if (JSON.parse(answer.body).error.message.includes('in demand')) continue;
        refused = answer;
        break;
      }
    }
    const spentBefore = (await upstreamRequests(bed.sandbox)).length;
    expect(spentBefore).toBe(7);

    if (loss === 'restart') {
      await bed.redis.stop();
      await until(
        async () => (await Promise.all(relays.map((r) => r.health()))).every((h) => h.redis === 'away'),
        10_000,
      );
      await bed.redis.restart();
    } else {
      // Nothing tells the members: their connections stay up, the counters and the lock are gone.
      const admin = createClient({ url: bed.redis.url });
      await admin.connect();
      await admin.flushAll();
      await admin.close();
    }
    const next = await leaderOf(relays, 15_000);
    await until(async () => (await Promise.all(relays.map((r) => r.health()))).every((h) => h.status === 200), 15_000);
    // The counters came back with what the members held, plus the new leader's own spends since
    // (its upstream stream, and the catalog Redis lost): every member reports the cluster's spend.
    await until(async () => {
      const log = await upstreamRequests(bed.sandbox);
      const minute = log.filter((r) => Date.parse(r.at) > Date.now() - 60_000).length;
      // The day's count starts at Tehran midnight, which may come during the test.
      const day = log.filter((r) => tehranDay(Date.parse(r.at)) === tehranDay(Date.now())).length;
      const reported = await Promise.all(
        relays.map(async (r) => [
          await r.metric('relay_budget_spent_minute'),
          await r.metric('relay_budget_spent_day'),
        ]),
      );
      return reported.every(([m, d]) => m === minute && d === day);
    }, 15_000);
    // So the minute's history budget is still spent: a new span is refused, not fetched: by the
    // budget (429), or, while leadership still settles after the restart on a loaded machine, for
    // want of a leader's answer (503); either way with Retry-After and no upstream request.
    const after = await get(next.url, '/v1/history/eur?days=7');
    expect([429, 503], after.body).toContain(after.status);
    expect(Number(after.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const log = await upstreamRequests(bed.sandbox);
    expect(log.filter((r) => r.path.startsWith('/v1/history/eur'))).toEqual([]);
    expect(busiestMinute(log)).toBeLessThanOrEqual(9);
  });

  it('serves a follower visitor whose span the leader was fetching when it died: the new leader answers the same ask', async () => {
    await cluster();
    const leader = await settled();
    const follower = relays.find((r) => r !== leader)!;
    const path = '/v1/history/eur?days=7';
    // The leader's upstream request hangs, so the visitor is still waiting when the leader dies.
    await control(bed.sandbox.url, 'faults', { rules: [{ path: '/v1/history', key: keyOf(leader), kind: 'hang' }] });
    const { served, upstream } = await upstreamAround(path, async () => {
      const answer = get(follower.url, path);
      await until(
        async () =>
          (await upstreamRequests(bed.sandbox)).some((r) => r.path === '/v1/history/eur' && r.key === keyOf(leader)),
        10_000,
      );
      leader.kill('SIGKILL');
      return answer;
    });
    expect(served.status).toBe(200);
    expect(served.headers.warning).toBeUndefined();
    expect(upstream).toContainEqual(JSON.parse(served.body));
    const next = await leaderOf(relays.filter((r) => r !== leader));
    expect(await spentOn('/v1/history/eur')).toEqual([keyOf(leader), keyOf(next)]);
  });

  it('answers a stale copy, or 503 with Retry-After, when no leader answers a follower in time; serves the span once one does', async () => {
    await cluster();
    const leader = await settled();
    const follower = relays.find((r) => r !== leader)!;
    // Redis holds a copy of one span from 10 minutes ago (stale: refetched after 5), none of the other.
    const old = {
      body: JSON.stringify(await upstreamBody('/v1/history/eur?days=7')),
      storedAt: Date.now() - 10 * 60_000,
    };
    const client = createClient({ url: bed.redis.url });
    await client.connect();
    await client.set('price-relay:cache:history:eur:7', JSON.stringify(old));
    await client.close();
    // Every leader's upstream requests hang: the old one's, and its successor's.
    await control(bed.sandbox.url, 'faults', { rules: [{ path: '/v1/history', kind: 'hang' }] });
    const answers = Promise.all([
      get(follower.url, '/v1/history/eur?days=7'),
      get(follower.url, '/v1/history/usd?days=7'),
    ]);
    await until(
      async () =>
        (await upstreamRequests(bed.sandbox)).filter((r) => r.path.startsWith('/v1/history') && r.key === keyOf(leader))
          .length === 2,
      10_000,
    );
    leader.kill('SIGSTOP');

    const [stale, none] = await answers;
    expect(stale.status).toBe(200);
    expect(stale.body).toBe(old.body);
    expect(Number(stale.headers.age)).toBeGreaterThanOrEqual(600);
    expect(stale.headers.warning).toMatch(/^110 /);
    expect(none.status).toBe(503);
    expect(none.headers['retry-after']).toBe('5');
    expect(JSON.parse(none.body)).toMatchObject({ error: { code: 'upstream_unavailable' } });

    // The upstream answers again: the same requests are served by the new leader.
    await control(bed.sandbox.url, 'faults', {}, 'DELETE');
    await leaderOf(
      relays.filter((r) => r !== leader),
      10_000,
    );
    for (const s of ['usd', 'eur']) {
      const path = `/v1/history/${s}?days=7`;
      // What the follower last answered, and since when a request waits: said if the wait runs out.
      let last = 'none yet';
      let askedAt = 0;
      const { served, upstream } = await upstreamAround(path, () =>
        until(async () => {
          askedAt = Date.now();
          const answer = await get(follower.url, path);
          askedAt = 0;
          last = `${answer.status} ${answer.headers.warning ?? ''} ${answer.body.slice(0, 160)}`;
          return answer.status === 200 && answer.headers.warning === undefined && answer;
          // The new leader's history requests that hung while the fault held end at the request timeout (10 s),
          // and asks meanwhile join them. The bound only bounds a failure, which then says what it saw.
        }, 90_000).catch((error: unknown) => {
          const waiting = askedAt ? `; a request waits for ${Date.now() - askedAt} ms` : '';
          throw new Error(`${path} not served fresh: the last answer was ${last}${waiting}`, { cause: error });
        }),
      );
      expect(upstream).toContainEqual(JSON.parse(served.body));
    }
  }, 240_000);
});
