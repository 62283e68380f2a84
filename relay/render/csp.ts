/**
 * The Content-Security-Policy sources of the fragments (DESIGN.md §13), published at
 * `GET /render/csp` for a site with a strict `style-src`: a fragment executes no inline script (its
 * JSON scripts are data) and has no `style=""` attribute, and its one `<style>` block per widget is
 * allowed by the block's sha256 hash. The hashes are those of the running build's own renders, so
 * they change exactly when a new build changes the styles.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendCacheable } from '../api-answers';
import { PriceBoardError } from './from-widgets';
import { RENDERED_WIDGETS } from './fragment';
import { prepareRenderer, renderWidget } from './renderer';

/** The path of the published sources. */
export { CSP_PATH } from '../error-page';

/** The CSP source of a `<style>` element's text: `'sha256-BASE64'`. */
export function styleSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The text of each `<style>` block in `html`. */
export function styleBlocks(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
}

/** The sources of each widget's style blocks, and all of them as one `style-src` list. */
export interface CspSources {
  'style-src': string;
  widgets: Record<string, string[]>;
}

/**
 * The attributes that give each style block a widget's render can carry: its own styles and its
 * extras' (any board), and the board's columns' chunk's beside them (an extra column or `link`
 * loads it: `board/columns.ts`). The chart area is never rendered on a server.
 */
const STYLE_VARIANTS: Readonly<Record<string, ReadonlyArray<ReadonlyArray<readonly [string, string]>>>> = {
  'price-board': [[], [['columns', 'price,change-amount']]],
};

let sources: CspSources | undefined;

/**
 * The sources of the running build. A widget's style block is its class's styles and those of the
 * chunks its render loads, the same whatever else the query and the quotes say: one render of each
 * variant tells them.
 */
export async function cspSources(): Promise<CspSources> {
  if (sources) return sources;
  await prepareRenderer();
  const widgets: Record<string, string[]> = {};
  for (const tag of Object.keys(RENDERED_WIDGETS)) {
    const blocks = (STYLE_VARIANTS[tag] ?? [[]]).flatMap((attributes) =>
      styleBlocks(
        renderWidget(tag, attributes, {
          quotes: [],
          status: 'error',
          delaySeconds: 0,
          error: new PriceBoardError('server', 'the style block alone'),
        }),
      ),
    );
    widgets[tag] = [...new Set(blocks.map(styleSource))];
  }
  const all = [...new Set(Object.values(widgets).flat())];
  sources = { 'style-src': all.join(' '), widgets };
  return sources;
}

/** Answers `GET /render/csp`: the sources as JSON, cached like an entry file of the build. */
export async function sendCspSources(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = JSON.stringify(await cspSources());
  sendCacheable(req, res, body, { maxAge: 300, swr: 3600 }, undefined, undefined, {
    'Content-Type': 'application/json; charset=utf-8',
  });
}
