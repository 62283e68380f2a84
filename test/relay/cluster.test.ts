// The relay as a cluster (DESIGN.md §7 "Cluster"): three relay processes, one Redis, the sandbox
// as the upstream. Each relay spends upstream under its own key suffix (`enterprise-key:<name>`),
// so the sandbox's request log says which process spent what.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { start, type StartedSandbox } from '../sandbox/helpers';
import { startRedis, startRelayProcess, leaderOf, stopAll, type RedisServer, type RelayProcess } from './cluster-helpers';
import { control, get, Stream, until, upstreamRequests } from './helpers';

let sandbox: StartedSandbox;
let redis: RedisServer;
let relays: RelayProcess[];
let streams: Stream[] = [];

beforeEach(async () => {
  sandbox = await start();
  redis = await startRedis();
  relays = await Promise.all(['a', 'b', 'c'].map((name) => startRelayProcess({ REDIS_URL: redis.url, UPSTREAM_URL: sandbox.url, UPSTREAM_KEY: `enterprise-key:${name}` })));
}, 90_000);

afterEach(async () => {
  for (const s of streams) s.close();
  streams = [];
  await stopAll();
  await sandbox.close();
});

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
  streams.push(stream);
  await stream.event((e) => e.event === 'quotes');
  return stream;
}

// Three processes start and stop per test: on a busy 2-core machine that alone takes a while.
describe('a cluster of three relays', { timeout: 90_000 }, () => {
  it('spends upstream from one process only, and brings a change to the clients of all three', async () => {
    const leader = await leaderOf(relays);
    // A follower asked first, before anyone asked the leader: the leader filled the shared catalog
    // as it took the lead, and followers never ask upstream themselves.
    const follower = relays.find((r) => r !== leader)!;
    expect((await get(follower.url, '/v1/symbols')).status).toBe(200);
    await settled();
    const clients = await Promise.all(relays.map((r) => openOn(r)));
    for (const r of relays) expect((await get(r.url, '/v1/prices?symbols=usd,eur')).status).toBe(200);

    await control(sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1234560' }] });
    const got = await Promise.all(clients.map((c) => c.event((e) => e.event === 'quote')));
    expect(got.map(price)).toEqual(['1234560', '1234560', '1234560']);
    // One cluster-wide id for one change, whichever process a client is on.
    expect(new Set(got.map((e) => e.id)).size).toBe(1);

    const log = await upstreamRequests(sandbox);
    expect(new Set(log.map((r) => r.key))).toEqual(new Set([keyOf(leader)]));
    expect(log.filter((r) => r.path === '/v1/stream')).toHaveLength(1);
    for (const r of relays) expect(await r.metric('relay_leader')).toBe(r === leader ? 1 : 0);
    expect(await relays[0]!.metric('relay_redis_connected')).toBe(1);
    // The budget is counted once for the cluster: every process reports the same spend.
    const spent = await Promise.all(relays.map((r) => r.metric('relay_budget_spent_minute')));
    expect(new Set(spent)).toEqual(new Set([log.length]));
  });

  it('answers a history span nobody fetched yet on a follower: it asks the leader, which spends one request for all askers', async () => {
    const leader = await settled();
    const followers = relays.filter((r) => r !== leader);
    const path = '/v1/history/eur?days=7';
    // Concurrent askers on both followers (and the leader): one upstream request between them.
    const answers = await Promise.all([...followers, ...followers, leader].map((r) => get(r.url, path)));
    const direct = await fetch(`${sandbox.url}${path}`, { headers: { 'X-API-Key': 'enterprise-key:direct' } });
    const upstreamBody = (await direct.json()) as { data: unknown };
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual(upstreamBody);
    }
    const asked = (await upstreamRequests(sandbox)).filter((r) => r.path === '/v1/history/eur' && r.key !== 'enterprise-key:direct');
    expect(asked.map((r) => r.key)).toEqual([keyOf(leader)]);
    // Later askers are answered from the shared cache.
    expect((await get(followers[1]!.url, path)).status).toBe(200);
    expect((await upstreamRequests(sandbox)).filter((r) => r.path === '/v1/history/eur')).toHaveLength(2);
  });

  it('survives SIGKILL of the leader: another takes over, and clients of the dead one resume elsewhere with nothing lost', async () => {
    const leader = await settled();
    const survivors = relays.filter((r) => r !== leader);
    const orphan = await openOn(leader);
    const kept = await Promise.all(survivors.map((r) => openOn(r)));
    await control(sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1000010' }] });
    const before = await orphan.event((e) => e.event === 'quote');
    await Promise.all(kept.map((s) => s.event((e) => e.id === before.id)));

    leader.kill('SIGKILL');
    await until(() => orphan.ended, 10_000);
    // Changes while no process leads: the next leader's upstream stream starts with them.
    await control(sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1000020' }] });
    const next = await leaderOf(survivors, 10_000);
    expect(next).not.toBe(leader);
    // The new leader's upstream stream is open once the change made meanwhile reached a client.
    await kept[0]!.event((e) => e.event === 'quote' && price(e) === '1000020');
    await control(sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1000030' }] });

    // The dead process's client comes back on a survivor with its last id: it gets exactly what it
    // missed, as events (not a fresh snapshot), in order.
    const resumed = new Stream(survivors[0]!.url, 'usd', { lastEventId: before.id });
    streams.push(resumed);
    await resumed.event((e) => price(e) === '1000030');
    expect(resumed.events.map((e) => e.event)).not.toContain('quotes');
    expect(resumed.events.map(price)).toEqual(['1000020', '1000030']);
    for (const s of kept) {
      await s.event((e) => e.event === 'quote' && price(e) === '1000030');
      expect(s.events.filter((e) => e.event === 'quote').map(price)).toEqual(['1000010', '1000020', '1000030']);
    }
    // From the new leader's key only, after the takeover.
    const log = await upstreamRequests(sandbox);
    const killedAt = log.findIndex((r) => r.key === keyOf(next));
    expect(log.slice(killedAt).every((r) => r.key === keyOf(next))).toBe(true);
  });

  it('never lets a paused leader spend beside its successor (SIGSTOP / SIGCONT)', async () => {
    const leader = await settled();
    const others = relays.filter((r) => r !== leader);
    // It has spent (its upstream stream is open) when it is paused.
    await until(async () => (await upstreamRequests(sandbox)).some((r) => r.key === keyOf(leader) && r.path === '/v1/stream'), 10_000);
    leader.kill('SIGSTOP');
    const next = await leaderOf(others, 10_000);
    const clients = await Promise.all(others.map((r) => openOn(r)));
    leader.kill('SIGCONT');
    await until(async () => (await leader.health()).role === 'follower', 10_000);
    // It serves again, from the cluster, as a follower.
    const back = await openOn(leader);
    await control(sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1000040' }] });
    for (const c of [...clients, back]) await c.event((e) => e.event === 'quote' && price(e) === '1000040');

    // The upstream's log: the old leader's requests all came before the new leader's first.
    const log = await upstreamRequests(sandbox);
    const firstOfNext = log.findIndex((r) => r.key === keyOf(next));
    expect(firstOfNext).toBeGreaterThan(0);
    expect(log.slice(firstOfNext).filter((r) => r.key === keyOf(leader))).toEqual([]);
  });

  it('keeps serving while Redis is away, reports it, and recovers without a burst of upstream requests', async () => {
    await settled();
    const clients = await Promise.all(relays.map((r) => openOn(r)));
    await redis.stop();
    await until(async () => (await Promise.all(relays.map((r) => r.health()))).every((h) => h.status === 503 && h.redis === 'away'), 10_000);
    for (const r of relays) {
      expect((await get(r.url, '/v1/prices?symbols=usd')).status).toBe(200);
      expect(await r.metric('relay_redis_connected')).toBe(0);
    }
    const beforeRestart = (await upstreamRequests(sandbox)).length;

    await redis.restart();
    await leaderOf(relays, 15_000);
    await until(async () => (await Promise.all(relays.map((r) => r.health()))).every((h) => h.status === 200), 15_000);
    await control(sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1000050' }] });
    for (const c of clients) await c.event((e) => e.event === 'quote' && price(e) === '1000050');
    // Each process wrote back what it held, so the new leader's first upstream snapshot changed
    // nothing: clients got the one real change, not a replay of every symbol.
    for (const c of clients) expect(c.events.filter((e) => e.event === 'quote').map(price)).toEqual(['1000050']);
    expect(clients.every((c) => !c.ended)).toBe(true);
    // Rejoining costs one upstream stream (and at most the catalog), not one per process or a retry storm.
    const after = (await upstreamRequests(sandbox)).slice(beforeRestart);
    expect(after.length).toBeLessThanOrEqual(2);
    expect(after.filter((r) => r.path === '/v1/stream')).toHaveLength(1);
  });
});
