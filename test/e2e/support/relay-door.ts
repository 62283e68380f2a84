/**
 * The way to a relay, as a site's server reaches it, under the test's control: everything passes
 * on (`forward`) until the test stops the relay's address (`stop()`: connections refused, open
 * ones cut, as a stopped relay), holds its fragments (`hold()`: `/render/...` requests wait
 * unanswered, as a relay too slow for the include's timeout) or brings it back. Counts the
 * fragment requests that reached the relay.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { forward } from '../../helpers/forward';

export interface RelayDoor {
  /** The relay's address through the door (no trailing slash). */
  url: string;
  port: number;
  /** `/render/...` requests passed on to the relay so far. */
  renders: number;
  /** Fragment requests waiting in a hold. */
  held: number;
  /** Refuses connections from now on and cuts the open ones. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** From now on `/render/...` requests wait until `release()`. */
  hold(): void;
  /** Passes the held requests on, and those to come. */
  release(): void;
  close(): Promise<void>;
}

/** A door on 127.0.0.1:`port` (0: a port of its own) in front of `relayUrl`. */
export async function startRelayDoor(relayUrl: string, port = 0): Promise<RelayDoor> {
  const target = new URL(relayUrl);
  const sockets = new Set<Socket>();
  let holding = false;
  let waiting: Array<() => void> = [];
  const pass = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.url?.startsWith('/render/')) door.renders += 1;
    forward(req, res, target);
  };
  const server = createServer((req, res) => {
    if (!(holding && req.url?.startsWith('/render/'))) return pass(req, res);
    door.held += 1;
    waiting.push(() => {
      door.held -= 1;
      if (!res.destroyed) pass(req, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const bound = await listen(port);
  const door: RelayDoor = {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    renders: 0,
    held: 0,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    start: async () => void (await listen(bound)),
    hold: () => void (holding = true),
    release() {
      holding = false;
      const go = waiting;
      waiting = [];
      go.forEach((f) => f());
    },
    async close() {
      door.release();
      if (server.listening) await door.stop();
    },
  };
  return door;
}
