/**
 * The relay bench's client process: thousands of idle SSE clients on raw sockets (an http.request
 * per client would cost more memory than the relay being measured), spread over loopback source
 * addresses. A change's price is the epoch ms when it was made upstream, so each receipt gives a
 * latency without clock sharing beyond this machine's. IPC: `connect`, `stats`, `reset`, `close`.
 */
import { connect, type Socket } from 'node:net';

interface Connect {
  type: 'connect';
  url: string;
  symbols: string;
  count: number;
  /** Per-client key suffixes (the sandbox counts limits per key). */
  keyPrefix?: string;
}

const sockets: Socket[] = [];
let snapshots = 0;
let failed = 0;
/** Receipt latencies in whole ms (last bucket: ≥ 10 s). */
let histogram = new Uint32Array(10_001);
/** Per change (its price): receipts and the slowest one. */
let changes = new Map<string, { count: number; max: number }>();
const PRICE = Buffer.from('"price":"');

function address(i: number): string {
  return `127.0.${100 + (i % 50)}.${1 + Math.floor(i / 50) % 250}`;
}

function open(target: URL, path: string, i: number, key: string | undefined): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname, port: Number(target.port), localAddress: address(i) });
    let snapshot = false;
    socket.on('connect', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\n${key ? `X-API-Key: ${key}\r\n` : ''}\r\n`);
    });
    // Bytes, not strings: decoding 100,000 chunks a second would slow the clients, not the relay.
    socket.on('data', (chunk: Buffer) => {
      const now = Date.now();
      if (!snapshot) {
        if (chunk.subarray(0, 9).toString('latin1') === 'HTTP/1.1 ' && chunk.subarray(0, 12).toString('latin1') !== 'HTTP/1.1 200') {
          failed += 1;
          socket.destroy();
          return resolve();
        }
        if (!chunk.includes('quotes')) return;
        snapshot = true;
        snapshots += 1;
        resolve();
        return;
      }
      for (let at = chunk.indexOf(PRICE); at >= 0; at = chunk.indexOf(PRICE, at + 1)) {
        const price = chunk.toString('latin1', at + PRICE.length, at + PRICE.length + 14);
        if (!/^\d{13}"$/.test(price)) continue;
        const key = price.slice(0, 13);
        const latency = Math.max(0, now - Number(key));
        histogram[Math.min(10_000, latency)]! += 1;
        const c = changes.get(key) ?? { count: 0, max: 0 };
        c.count += 1;
        c.max = Math.max(c.max, latency);
        changes.set(key, c);
      }
    });
    socket.on('error', () => {
      failed += 1;
      resolve();
    });
    socket.on('close', () => resolve());
    sockets.push(socket);
  });
}

function percentile(h: Uint32Array, p: number): number {
  const total = h.reduce((a, b) => a + b, 0);
  let seen = 0;
  for (let i = 0; i < h.length; i++) {
    seen += h[i]!;
    if (seen >= total * p) return i;
  }
  return NaN;
}

process.on('message', async (message: Connect | { type: 'stats' | 'reset' | 'close' }) => {
  if (message.type === 'connect') {
    const target = new URL(message.url);
    const start = sockets.length;
    const path = `/v1/stream?symbols=${message.symbols}`;
    for (let i = start; i < start + message.count; i += 250) {
      const batch = [];
      for (let j = i; j < Math.min(i + 250, start + message.count); j++) batch.push(open(target, path, j, message.keyPrefix && `${message.keyPrefix}${j}`));
      await Promise.all(batch);
    }
    process.send!({ type: 'connected', total: sockets.length, snapshots, failed });
  } else if (message.type === 'stats') {
    const complete = [...changes.values()].filter((c) => c.count >= snapshots);
    const slowest = new Uint32Array(10_001);
    for (const c of complete) slowest[Math.min(10_000, c.max)]! += 1;
    process.send!({
      type: 'stats',
      receipts: histogram.reduce((a, b) => a + b, 0),
      p50: percentile(histogram, 0.5),
      p99: percentile(histogram, 0.99),
      changes: changes.size,
      completeChanges: complete.length,
      lastClientP99: percentile(slowest, 0.99),
    });
  } else if (message.type === 'reset') {
    histogram = new Uint32Array(10_001);
    changes = new Map();
    process.send!({ type: 'reset' });
  } else if (message.type === 'close') {
    for (const s of sockets) s.destroy();
    sockets.length = 0;
    snapshots = 0;
    failed = 0;
    process.send!({ type: 'closed' });
  }
});
process.send!({ type: 'ready' });
