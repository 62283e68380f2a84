// A redirect from the service is not followed: a followed one carries X-API-Key to wherever the
// Location points. Two real sandboxes: the service, and "another origin" that logs what reaches it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PriceClient } from '../../../src/api/client';
import { openSse } from '../../../src/live/sse';
import { startTestSandbox, type TestSandbox } from './sandbox-control';

let service: TestSandbox;
let elsewhere: TestSandbox;
const key = 'pro-key:redirect';

beforeAll(async () => {
  [service, elsewhere] = await Promise.all([startTestSandbox(), startTestSandbox()]);
});
afterAll(async () => {
  await Promise.all([service.close(), elsewhere.close()]);
});

describe('a 307 to another origin', () => {
  it('is refused as bad_response by the client; the key never reaches the other origin', async () => {
    await service.faults([
      { kind: 'redirect', path: '/v1/prices', location: `${elsewhere.url}/v1/prices?symbols=usd` },
    ]);
    const client = new PriceClient({ baseUrl: service.url, apiKey: key, retry: { retries: 0, baseMs: 1, maxMs: 1 } });
    await expect(client.prices(['usd'])).rejects.toMatchObject({ code: 'bad_response', status: 307 });
    expect(await elsewhere.requests('/v1/')).toEqual([]);
  });

  it('is refused by the stream too', async () => {
    await service.faults([
      { kind: 'redirect', path: '/v1/stream', location: `${elsewhere.url}/v1/stream?symbols=usd` },
    ]);
    const opened = openSse({ url: `${service.url}/v1/stream?symbols=usd`, apiKey: key, onEvent: () => {} });
    await expect(opened).rejects.toMatchObject({ code: 'bad_response' });
    expect(await elsewhere.requests('/v1/')).toEqual([]);
  });
});
