// The docs are part of the product: each element's page carries its API reference generated from
// the JSDoc, the pages keep naming every public name of DESIGN.md, and the README stays the short
// page for someone deciding to use it (DESIGN.md §11).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAGES, readDeclarations, renderApi } from '../../../scripts/api-docs.mjs';
import { BOARD_ATTRIBUTES } from '../../helpers/design-names';

const read = (path: string): string => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const board = read(PAGES['price-board']!);

describe('element pages', () => {
  it('have the API reference of each element generated from the current JSDoc (run node scripts/api-docs.mjs)', () => {
    const declarations = readDeclarations();
    expect([...declarations.keys()]).toEqual(['price-board', 'price-ticker', 'price-converter']);
    for (const [tag, d] of declarations) expect(read(PAGES[tag]!), tag).toContain(renderApi(d));
  });

  it('write the error table once, on the board page; the others link to it', () => {
    const table = '| code | when | what the widget does |';
    expect(board).toContain('## Error codes');
    expect(board.split(table)).toHaveLength(2);
    for (const tag of ['price-ticker', 'price-converter']) {
      const page = read(PAGES[tag]!);
      expect(page, tag).not.toContain(table);
      expect(page, tag).toContain('](board.md#error-codes)');
    }
  });

  it('document every attribute, event, part and CSS property of the contract', () => {
    const names = [
      ...BOARD_ATTRIBUTES,
      ...['price-board-quotes', 'price-board-status', 'price-board-error', 'price-board-select'],
      ...['board', 'row', 'title', 'price', 'change', 'high', 'low', 'time', 'status', 'chart', 'error'].map(
        (p) => `| \`${p}\` |`,
      ),
      ...['font', 'bg', 'fg', 'muted', 'border', 'up', 'down', 'accent', 'radius'].map((p) => `--price-board-${p}`),
    ];
    for (const name of names) expect(board, name).toContain(name);
  });
});

describe('README.md', () => {
  it('starts with the two commands', () => {
    const top = readme.slice(0, 400);
    expect(top).toContain('npm install && npm start');
    expect(top).toContain('npm test');
  });

  it('stays within 12 KB and links to the pages by reader', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
    for (const page of [
      ...Object.values(PAGES),
      'docs/relay.md',
      'docs/embedding.md',
      'docs/bench.md',
      'docs/ARCHITECTURE.md',
    ]) {
      expect(readme, page).toContain(`](${page})`);
    }
  });

  it('carries no bench figures (npm run bench writes them to docs/bench.md)', () => {
    expect(readme).not.toMatch(/\d KB\b|\d ms\b|× floor|\*\*NOT met\*\*/);
  });

  it('names the supported Node versions', () => {
    expect(readme).toMatch(/20\.19\+, 22 (and|or) 24/);
  });
});

describe('links between the docs', () => {
  it('point to files that exist, and to headings that exist', () => {
    const docs = [
      'README.md',
      ...Object.values(PAGES),
      'docs/relay.md',
      'docs/ARCHITECTURE.md',
      'docs/development.md',
      'docs/service.md',
    ];
    const slug = (heading: string): string =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .trim()
        .replace(/\s/g, '-');
    for (const doc of docs) {
      const dir = new URL(`../../../${doc}`, import.meta.url);
      for (const [, target] of read(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#');
        const file = path ? new URL(path, dir) : dir;
        expect(existsSync(file), `${doc} → ${target}`).toBe(true);
        if (anchor && file.pathname.endsWith('.md')) {
          const headings = [...readFileSync(file, 'utf8').matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]!));
          expect(headings, `${doc} → ${target}`).toContain(anchor);
        }
      }
    }
  });
});
