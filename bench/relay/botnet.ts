/**
 * Relay bench, history under a botnet (DESIGN.md §7.1), on a basic key: a botnet of distinct
 * loopback addresses asks for everything (every symbol's history over many spans, 1..365 days and
 * 7/30/365, and prices of every symbol), while a real visitor loads pages (prices, usd 30 days,
 * and eur 7 days, eur 30 days or gold_18 30 days in turn). Measured: upstream requests in the
 * busiest minute, and the visitor's p99 and failures beside the same visitor with no botnet. The
 * relay and the sandbox run on one virtual clock (minutes pass in seconds, so the budget's minutes
 * are the plan's); the visitor's latencies are wall-clock.
 *
 * Run alone: `npx tsx bench/relay/botnet.ts`.
 */
import { request } from 'node:http';
import { readConfig } from '../../relay/config';
import { startRelay } from '../../relay/server';
import { startSandbox } from '../../sandbox/server';
import { printWhenRunAlone, symbolIds, type SandboxStats } from '../util';

export interface VisitorRun {
  requests: number;
  failed: number;
  /** Failed requests by status, path and minute. */
  failures: Record<string, number>;
  p50: number;
  p99: number;
}

export interface BotnetResults {
  plan: { perMinute: number; share: number };
  minutes: number;
  botRequests: number;
  botAddresses: number;
  /** Upstream requests of the attacked run: all, and in the busiest 60 s. */
  upstream: { requests: number; peakPerMinute: number; history: number };
  attacked: VisitorRun;
  unattacked: VisitorRun;
}

/** The answer's status and, for a failure, its error message. */
function ask(url: string, from: string): Promise<{ status: number; message?: string }> {
  return new Promise((resolve) => {
    const req = request(url, { localAddress: from, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += res.statusCode === 200 ? '' : chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        let message: string | undefined;
        if (status !== 200) {
          try {
            message = (JSON.parse(body) as { error?: { message?: string } }).error?.message;
          } catch {
            message = body.slice(0, 80);
          }
        }
        resolve({ status, message });
      });
    });
    req.on('error', (error) => resolve({ status: 0, message: error.message }));
    req.end();
  });
}

const status = (url: string, from: string): Promise<number> => ask(url, from).then((a) => a.status);

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! * 10) / 10 : NaN;
}

function peakPerMinute(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 60_000) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}

const VISITOR = '127.0.0.77';
const MAX_IN_FLIGHT = 1_000;
const PAGE_SYMBOLS = 'usd,eur,gold_18,coin_emami,ons';

/** One run: `minutes` of page loads every 2 s (virtual), with `botsPerStep` bot requests beside each. */
async function run(
  minutes: number,
  botsPerStep: number,
): Promise<{ visitor: VisitorRun; upstream: BotnetResults['upstream']; botRequests: number }> {
  let virtual = Date.UTC(2026, 10, 23, 8, 0, 0);
  const start = virtual;
  const now = () => virtual;
  const sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0, now });
  const key = `basic-key:bench-botnet-${botsPerStep}`;
  // The per-address request limit counts wall-clock windows, and this runs minutes of a virtual
  // clock in seconds: it would refuse the visitor itself. What is measured is the budget and the
  // per-address share of history, which follow the virtual clock.
  const config = readConfig({
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_KEY: key,
    PLAN: 'basic',
    PORT: '0',
    CLIENT_RPM: '1000000',
  });
  const relay = await startRelay({ ...config, upstreamUrl: sandbox.url }, { logSink: () => {}, now });
  try {
    const all = symbolIds(
      await (
        await fetch(`${sandbox.url}/v1/symbols`, { headers: { 'X-API-Key': 'enterprise-key:bench-botnet-setup' } })
      ).json(),
    );
    const latencies: number[] = [];
    let failed = 0;
    const failures: Record<string, number> = {};
    let bots = 0;
    const inFlight = new Set<Promise<number>>();
    const timed = async (path: string): Promise<void> => {
      const t0 = performance.now();
      const answer = await ask(relay.url + path, VISITOR);
      latencies.push(performance.now() - t0);
      if (answer.status !== 200) {
        failed += 1;
        const what = `${answer.status} ${path.split('?')[0]} in minute ${1 + Math.floor((virtual - start) / 60_000)} (${answer.message})`;
        failures[what] = (failures[what] ?? 0) + 1;
      }
    };
    const bot = (i: number): Promise<number> => {
      const from = `127.3.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;
      const symbol = all[i % all.length]!;
      // Most asks are history over any span; some are prices of a few symbols.
      if (i % 10 === 9) return status(`${relay.url}/v1/prices?symbols=${symbol},${all[(i * 7) % all.length]}`, from);
      const days = i % 3 === 0 ? [7, 30, 365][(i / 3) % 3]! : 1 + ((Math.floor(i / all.length) * 37) % 365);
      return status(`${relay.url}/v1/history/${symbol}?days=${days}`, from);
    };
    const steps = minutes * 30;
    for (let step = 0; step < steps; step++) {
      virtual = start + step * 2_000;
      const page = Promise.all([
        timed(`/v1/prices?symbols=${PAGE_SYMBOLS}`),
        timed('/v1/history/usd?days=30'),
        timed(['/v1/history/eur?days=7', '/v1/history/eur?days=30', '/v1/history/gold_18?days=30'][step % 3]!),
      ]);
      // The botnet does not wait for its answers (a price of a symbol not yet streamed may wait
      // seconds for its quote): its asks keep coming at the same rate, at most `MAX_IN_FLIGHT` open.
      for (let j = 0; j < botsPerStep && inFlight.size < MAX_IN_FLIGHT; j++) {
        const ask = bot(bots++).finally(() => inFlight.delete(ask));
        inFlight.add(ask);
      }
      await page;
    }
    await Promise.all(inFlight);
    const stats = (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as SandboxStats;
    const spent = stats.requests.filter((r) => r.key === key);
    const times = spent.map((r) => (typeof r.at === 'number' ? r.at : Date.parse(String(r.at))));
    return {
      visitor: {
        requests: latencies.length,
        failed,
        failures,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
      },
      upstream: {
        requests: spent.length,
        peakPerMinute: peakPerMinute(times),
        history: spent.filter((r) => r.path.startsWith('/v1/history')).length,
      },
      botRequests: bots,
    };
  } finally {
    await relay.close();
    await sandbox.close();
  }
}

export async function runRelayBotnet(
  log: (s: string) => void = () => {},
  minutes = 5,
  botsPerStep = 40,
): Promise<BotnetResults> {
  const unattacked = await run(minutes, 0);
  log(
    `  visitor alone: p99 ${unattacked.visitor.p99} ms, ${unattacked.visitor.failed}/${unattacked.visitor.requests} failed`,
  );
  const attacked = await run(minutes, botsPerStep);
  log(
    `  visitor under a botnet of ${attacked.botRequests} addresses: p99 ${attacked.visitor.p99} ms, ${attacked.visitor.failed}/${attacked.visitor.requests} failed; upstream busiest minute ${attacked.upstream.peakPerMinute}`,
  );
  return {
    plan: { perMinute: 30, share: 0.8 },
    minutes,
    botRequests: attacked.botRequests,
    botAddresses: attacked.botRequests,
    upstream: attacked.upstream,
    attacked: attacked.visitor,
    unattacked: unattacked.visitor,
  };
}

printWhenRunAlone(import.meta.url, () => runRelayBotnet(console.log));
