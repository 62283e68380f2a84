/**
 * One of the relay bench's client processes: its share of the idle SSE clients, on raw sockets
 * (an http.request per client would cost more than the relay being measured), spread over loopback
 * source addresses. Every socket is read (every receipt counts); a change's price is the epoch ms
 * of the change upstream, so each receipt gives a latency on this machine's one clock.
 * IPC: `connect`, `stats`, `reset`, `close`.
 */
import { connect, type Socket } from 'node:net';

interface Connect {
  type: 'connect';
  url: string;
  symbols: string;
  count: number;
  /** The clients' global numbers start here (source addresses and keys differ across processes). */
  first: number;
  /** Per-client key suffixes (the sandbox counts limits per key). */
  keyPrefix?: string;
}

const sockets: Socket[] = [];
let snapshots = 0;
let failed = 0;
/** Receipt latencies in whole ms (last bucket: ≥ 10 s). */
let histogram = new Uint32Array(10_001);
/** Per change (its price, epoch ms): receipts and the slowest one. */
let changes = new Map<number, { count: number; max: number }>();
let cpuAtReset = process.cpuUsage();
let wallAtReset = Date.now();

const PRICE = Buffer.from('"price":"');
const DIGITS = 13;
/**
 * One read buffer for every socket (`onread`): reads skip the stream machinery and allocate
 * nothing, so a read costs the harness as little as Node allows and its timestamp is taken first.
 */
const READ = Buffer.alloc(64 * 1024);

function address(i: number): string {
  return `127.0.${100 + (i % 50)}.${1 + (Math.floor(i / 50) % 250)}`;
}

/** Records every `"price":"<13 digits>"` in the first `n` bytes of READ, received at `now`. */
function receipts(n: number, now: number): void {
  for (let at = READ.indexOf(PRICE); at >= 0 && at + PRICE.length + DIGITS <= n; at = READ.indexOf(PRICE, at + 1)) {
    let t0 = 0;
    let p = at + PRICE.length;
    for (const end = p + DIGITS; p < end; p++) t0 = t0 * 10 + READ[p]! - 48;
    if (READ[p] !== 0x22) continue; // not a bench price: a quote of the snapshot
    const latency = Math.max(0, now - t0);
    histogram[Math.min(10_000, latency)]! += 1;
    const c = changes.get(t0);
    if (c) {
      c.count += 1;
      if (latency > c.max) c.max = latency;
    } else changes.set(t0, { count: 1, max: latency });
  }
}

function open(target: URL, path: string, i: number, key: string | undefined): Promise<void> {
  return new Promise((resolve) => {
    let snapshot = false;
    const socket = connect({
      host: target.hostname,
      port: Number(target.port),
      localAddress: address(i),
      onread: {
        buffer: READ,
        callback: (n: number) => {
          const now = Date.now();
          if (snapshot) receipts(n, now);
          else {
            const text = READ.toString('latin1', 0, n);
            if (text.startsWith('HTTP/1.1 ') && !text.startsWith('HTTP/1.1 200')) {
              failed += 1;
              socket.destroy();
              resolve();
            } else if (text.includes('event: quotes')) {
              snapshot = true;
              snapshots += 1;
              resolve();
            }
          }
          return true; // keep reading
        },
      },
    });
    socket.on('connect', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\n${key ? `X-API-Key: ${key}\r\n` : ''}\r\n`,
      );
    });
    socket.on('error', () => {
      failed += 1;
      resolve();
    });
    socket.on('close', () => resolve());
    sockets.push(socket);
  });
}

process.on('message', async (message: Connect | { type: 'stats' | 'reset' | 'close' }) => {
  if (message.type === 'connect') {
    const target = new URL(message.url);
    const path = `/v1/stream?symbols=${message.symbols}`;
    for (let i = 0; i < message.count; i += 250) {
      const batch = [];
      for (let j = i; j < Math.min(i + 250, message.count); j++) {
        const n = message.first + j;
        batch.push(open(target, path, n, message.keyPrefix && `${message.keyPrefix}${n}`));
      }
      await Promise.all(batch);
    }
    process.send!({ type: 'connected', total: sockets.length, snapshots, failed });
  } else if (message.type === 'stats') {
    const cpu = process.cpuUsage(cpuAtReset);
    process.send!({
      type: 'stats',
      snapshots,
      // Sparse: [ms, receipts] pairs.
      histogram: [...histogram.entries()].filter(([, n]) => n > 0),
      changes: [...changes.entries()].map(([t0, c]) => [t0, c.count, c.max]),
      cpuShare: (cpu.user + cpu.system) / 1000 / Math.max(1, Date.now() - wallAtReset),
    });
  } else if (message.type === 'reset') {
    histogram = new Uint32Array(10_001);
    changes = new Map();
    cpuAtReset = process.cpuUsage();
    wallAtReset = Date.now();
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
