import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../sandbox/server';
import { control, getJson, type PricesBody } from './helpers';

const root = fileURLToPath(new URL('../../', import.meta.url));
let child: ChildProcess;
let base = '';
let banner = '';

beforeAll(async () => {
  child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'sandbox/cli.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', SANDBOX_MARKET: 'closed' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  banner = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
  });
  base = /(http:\/\/\S+)/.exec(banner)![1]!;
});
afterAll(async () => {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
});

describe('npm run sandbox (sandbox/cli.ts)', () => {
  it('prints its address and the keys, and serves prices', async () => {
    expect(banner).toMatch(
      /^Sandbox price service: http:\/\/127\.0\.0\.1:\d+ \(keys: demo-key, basic-key, pro-key, enterprise-key, restricted-key\)$/,
    );
    const body = await getJson<PricesBody>(base, '/v1/prices?symbols=usd,ons', 'demo-key');
    expect(body.data.quotes.map((q) => q.symbol)).toEqual(['usd', 'ons']);
  });

  it('takes the market mode from SANDBOX_MARKET', async () => {
    expect(await control(base, 'market', { tick: true })).toMatchObject({ open: false, mode: 'closed', changed: [] });
  });

  it('rejects an unknown market mode', () => {
    expect(() => createSandbox({ market: 'sometimes' as never })).toThrow(/auto, open, closed/);
  });
});
