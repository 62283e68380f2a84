// The page's services (`servicePart`): the chart's history and the spark lines of one service and
// key use one client, against a real sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHistory, sourceFor } from '../../../src/chart/history-source';
import { SparkHistory } from '../../../src/widget/spark-history';
import { startTestSandbox, type TestSandbox } from './sandbox-control';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe('services', () => {
  it('the chart and the sparks of one service share its client: the same history asked by both at once is one request', async () => {
    const key = 'pro-key:services-shared';
    const sparks = SparkHistory.for(sandbox.url, key);
    const chart = loadHistory(sourceFor(sandbox.url, key), 'coin_emami', 7, new AbortController().signal);
    const line = new Promise<void>((resolve) => {
      const unwatch = sparks.watch('coin_emami', () => {
        unwatch();
        resolve();
      });
    });
    const [{ candles }] = await Promise.all([chart, line]);
    expect(candles.length).toBeGreaterThan(0);
    expect(sparks.line('coin_emami')).toBeDefined();
    expect((await sandbox.requests('/v1/history/', key)).map((r) => r.url)).toEqual(['/v1/history/coin_emami?days=7']);
  });

  it('names a service as the hub does: a trailing slash or an empty key is the same service', () => {
    expect(sourceFor(`${sandbox.url}/`, '')).toBe(sourceFor(sandbox.url, undefined));
    expect(SparkHistory.for(` ${sandbox.url}/`, '')).toBe(SparkHistory.for(sandbox.url, undefined));
    expect(sourceFor(sandbox.url, 'pro-key:a')).not.toBe(sourceFor(sandbox.url, 'pro-key:b'));
  });
});
