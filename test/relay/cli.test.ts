// The command: every variable validated at start (a bad value stops it naming the variable), a
// working relay with no configuration, and a graceful SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../relay/config';
import { RELAY_COMMAND } from '../helpers/cluster-processes';
import { get, Stream, until } from './helpers';

function run(env: Record<string, string>): {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [...RELAY_COMMAND], {
    env: { PATH: process.env.PATH, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

describe('configuration', () => {
  it.each([
    ['PLAN', 'gold'],
    ['BUDGET_SHARE', '1.5'],
    ['BUDGET_SHARE', '0'],
    ['PORT', 'http'],
    ['UPSTREAM_URL', 'ftp://prices.example'],
    ['UPSTREAM_RPM', '-5'],
    ['UPSTREAM_RPD', '1e3'],
    ['ALLOWED_ORIGINS', 'shop.example'],
    ['SYMBOLS', 'USD'],
    ['TRUST_PROXY', 'my-proxy'],
    ['REDIS_URL', 'localhost:6379'],
  ])('refuses %s=%s naming the variable', (name, value) => {
    expect(() => readConfig({ [name]: value })).toThrow(new RegExp(`^${name}: `));
  });

  it('needs UPSTREAM_KEY with UPSTREAM_URL, and never prints the key', () => {
    expect(() => readConfig({ UPSTREAM_URL: 'https://prices.example' })).toThrow(/^UPSTREAM_KEY: required/);
    expect(() => readConfig({ UPSTREAM_URL: 'https://prices.example', UPSTREAM_KEY: 'kéy' })).toThrow(
      /^UPSTREAM_KEY: has characters/,
    );
  });

  it('takes the budget from PLAN unless given', () => {
    expect(readConfig({ PLAN: 'basic' })).toMatchObject({ perMinute: 30, perDay: 20_000, budgetShare: 0.8 });
    expect(readConfig({ PLAN: 'basic', UPSTREAM_RPM: '50', UPSTREAM_RPD: '0' })).toMatchObject({
      perMinute: 50,
      perDay: null,
    });
    expect(readConfig({})).toMatchObject({
      plan: 'enterprise',
      upstreamKey: 'enterprise-key',
      port: 8788,
      host: '127.0.0.1',
    });
  });

  it('stops the command with exit code 2 and a message naming the bad variable', async () => {
    const relay = run({ BUDGET_SHARE: '2' });
    expect(await relay.exit).toBe(2);
    expect(relay.err()).toMatch(/BUDGET_SHARE/);
  });
});

describe('the command', () => {
  it('relays an in-process sandbox with no configuration, and on SIGTERM tells streams to reconnect and stops accepting', async () => {
    const relay = run({});
    const url = await until(() => /Price relay: (http:\/\/\S+)/.exec(relay.out())?.[1], 20_000);
    const prices = await get(url, '/v1/prices?symbols=usd,eur');
    expect(prices.status).toBe(200);
    const stream = new Stream(url, 'usd');
    await stream.event((e) => e.event === 'quotes');
    relay.child.kill('SIGTERM');
    await until(() => stream.ended, 10_000);
    expect(stream.raw.endsWith('retry: 1000\n\n')).toBe(true);
    expect(await relay.exit).toBe(0);
    await expect(get(url, '/healthz')).rejects.toThrow(/ECONNREFUSED/);
    expect(relay.out()).toContain('"event":"relay_stopped"');
  });
});
