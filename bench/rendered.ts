/**
 * A page that includes the relay's rendered board (DESIGN.md §6 and §13), for the visitor rounds
 * (./visitor): a relay (enterprise plan, no per-visitor limit, serving `dist/`, PUBLIC_URL its own
 * origin) in front of the bench's sandbox, and the bench server including its
 * `/render/price-board?symbols=<the 10 symbols>` fragment in `bench/pages/rendered.html` as nginx
 * SSI would, once per page load (no cache: the page's time includes the relay's answer, and the
 * snapshot is never older than the load). The fragment's module script comes from the relay; the
 * element's service is the relay that served it. The relay's `/v1/prices` requests are counted:
 * none while the snapshot is fresh.
 */
import { startPageRelay } from './page-relay';
import { PAINT_SYMBOLS } from './paint';
import type { BenchServer } from './server';
import type { PagePair } from './visitor';

export interface RenderedPages {
  pages: PagePair;
  relayUrl: string;
  close(): Promise<void>;
}

/** `pages` with the rendered board's page beside them, and the relay behind it. */
export async function withRendered(
  server: BenchServer,
  pages: PagePair,
  opts: { dist: string; upstreamKey: string },
): Promise<RenderedPages> {
  const pageRelay = await startPageRelay(server, { ...opts, publicUrl: true });
  const { relay } = pageRelay;
  const symbols = PAINT_SYMBOLS.join(',');
  try {
    // The first render loads the renderer and the relay's first quotes: not a visitor's wait.
    const warm = await fetch(`${relay.url}/render/price-board?symbols=${symbols}`);
    const body = await warm.text();
    if (!body.includes('shadowrootmode') || !body.includes(`${relay.url}/price-board.js`))
      throw new Error(`the relay's fragment has no rendered board or no module script: ${body.slice(0, 200)}`);
  } catch (error) {
    await pageRelay.close();
    throw error;
  }
  server.includeFrom(relay.url);
  return {
    pages: {
      ...pages,
      // The key only names the run (nothing cached by key); the page sends none.
      rendered: (key) => `${server.url}/bench/rendered.html?${new URLSearchParams({ symbols, run: key })}`,
      relayPricesCount: pageRelay.prices,
    },
    relayUrl: relay.url,
    close: async () => {
      server.includeFrom(undefined);
      await pageRelay.close();
    },
  };
}
