/**
 * The relay bench's floor: a bare node:http SSE server with no relay logic, in a process of its
 * own. It answers any request with the relay's stream headers (close-delimited) and a `quotes`
 * snapshot, then, on `drive`, makes each change by encoding the relay's frame for it (the same
 * event, the same quote JSON, only the price is the change's epoch ms) once and writing that
 * Buffer to every socket in one loop: what any Node server must spend to tell N clients of a change,
 * one socket write each (target `floor`), or one write each for the changes that fell due
 * together (`floor-merged`). IPC: `mem` (after a full GC), `drive`.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { openEventStream, sseFrame } from '../../relay/http';
import type { DriveResult } from './fanout';
import { memoryAnswer, paced } from './paced';

/** The relay's `usd` quote, as its stream serializes it (passed by the bench). */
const quote = JSON.parse(process.env.BENCH_FLOOR_QUOTE ?? '{}') as Record<string, string>;
const sockets = new Set<Socket>();
let id = 0;

function open(res: ServerResponse): void {
  openEventStream(res, 3_000, true);
  const socket = res.socket!;
  socket.write(sseFrame('quotes', id, JSON.stringify({ at: new Date().toISOString(), quotes: [quote] })));
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
}

const server = createServer((_req, res) => open(res));
server.maxConnections = 19_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

/** The relay's frame of a change. */
const frameOf = (t0: number) => Buffer.from(sseFrame('quote', ++id, JSON.stringify({ ...quote, price: String(t0) })));

/**
 * `merged`: the changes that fell due together (while the loop was blocked writing) go out as one
 * write per client, as the relay does; otherwise one write per client per change.
 */
async function drive(seconds: number, perSecond: number, merged: boolean): Promise<DriveResult> {
  const write: number[] = [];
  const writeAll = (frame: Buffer) => {
    for (const socket of sockets) socket.write(frame);
  };
  const run = await paced(seconds, perSecond, (t0s) => {
    const made = Date.now();
    if (merged) writeAll(Buffer.concat(t0s.map(frameOf)));
    else for (const t0 of t0s) writeAll(frameOf(t0));
    for (const _ of t0s) write.push(Date.now() - made);
  });
  return {
    changes: run.made.length,
    rate: run.rate,
    late: run.late,
    upstream: [],
    write,
    cpu: run.cpu,
    cpuShare: (run.cpu.user + run.cpu.system) / run.wallMs,
    seconds: run.wallMs / 1000,
    load: run.load,
  };
}

process.on('message', (message: { type: string; target?: string; seconds?: number; perSecond?: number }) => {
  if (message.type === 'mem') process.send!(memoryAnswer());
  else if (message.type === 'drive') {
    void drive(message.seconds!, message.perSecond!, message.target === 'floor-merged').then((r) =>
      process.send!({ type: 'driven', ...r }),
    );
  }
});
process.send!({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
