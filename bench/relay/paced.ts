/**
 * The relay bench's change maker, shared by the server processes (relay and sandbox; the floor) so
 * that every target gets the same schedule: `perSecond` changes a second for `seconds`, change `i`
 * due at `start + i / perSecond` and dated then (`t0`, epoch ms, its price). A process busy writing
 * (its event loop blocked) makes the changes that fell due meanwhile as soon as it can, one after
 * the other, still dated when they were due: a remote upstream would have made them on time, so
 * their latency counts from then, and a server that cannot keep up shows it in its latency rather
 * than in a slower schedule. Also the process's CPU time meanwhile, user and system apart.
 */
import { loadavg } from 'node:os';

export interface Paced {
  /** The changes' epoch ms (their due times), in order. */
  made: number[];
  /** Changes a second on the schedule (made late or not). */
  rate: number;
  /** Changes made more than 10 ms after they were due (the process was busy). */
  late: number;
  /** CPU time of this process from the first change to the end (after `settleMs`), ms. */
  cpu: { user: number; system: number };
  /** Wall time from the first change to the end, ms. */
  wallMs: number;
  load: number;
}

/** `change` gets the changes that fell due since its last call (one, unless the process was busy). */
export async function paced(
  seconds: number,
  perSecond: number,
  change: (t0s: readonly number[]) => void,
  settleMs = 0,
): Promise<Paced> {
  const made: number[] = [];
  let late = 0;
  const cpu = process.cpuUsage();
  const start = Date.now();
  const count = seconds * perSecond;
  const due = (i: number) => start + Math.floor((i * 1000) / perSecond);
  for (let i = 0; i < count;) {
    await new Promise((r) => setTimeout(r, Math.max(0, due(i) - Date.now())));
    const batch: number[] = [];
    for (const now = Date.now(); i < count && due(i) <= now; i++) {
      if (now - due(i) > 10) late += 1;
      batch.push(due(i));
    }
    made.push(...batch);
    change(batch);
  }
  const rate = made.length / Math.max(0.001, (made.at(-1)! - made[0]!) / 1000 + 1 / perSecond);
  if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
  const used = process.cpuUsage(cpu);
  return {
    made,
    rate,
    late,
    cpu: { user: used.user / 1000, system: used.system / 1000 },
    wallMs: Date.now() - start,
    load: loadavg()[0]!,
  };
}

const gc = (globalThis as { gc?: () => void }).gc;

/** A server child's answer to `mem`: its memory after two forced collections (with --expose-gc). */
export function memoryAnswer(): { type: 'mem'; rss: number; heapUsed: number; external: number; gc: boolean } {
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { type: 'mem', rss: m.rss, heapUsed: m.heapUsed, external: m.external, gc: gc !== undefined };
}
