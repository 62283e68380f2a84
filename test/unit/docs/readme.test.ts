// The README is part of the product: its API reference must match the element's JSDoc, and it
// must keep naming every public name of DESIGN.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDeclarations, renderApi } from '../../../scripts/readme-api.mjs';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('README.md', () => {
  it('has the API reference of each element generated from the current JSDoc (run node scripts/readme-api.mjs)', () => {
    const declarations = readDeclarations();
    expect([...declarations.keys()]).toEqual(['price-board', 'price-ticker', 'price-converter']);
    for (const d of declarations.values()) expect(readme).toContain(renderApi(d));
  });

  it('starts with the two commands', () => {
    const top = readme.slice(0, 400);
    expect(top).toContain('npm install && npm start');
    expect(top).toContain('npm test');
  });

  it('documents every attribute, event, part and CSS property of the contract', () => {
    const names = [
      ...['symbols', 'api-key', 'base-url', 'stream', 'stream-url', 'poll-interval', 'unit', 'theme', 'chart', 'chart-symbol', 'days'],
      ...['price-board-quotes', 'price-board-status', 'price-board-error', 'price-board-select'],
      ...['board', 'row', 'title', 'price', 'change', 'high', 'low', 'time', 'status', 'chart', 'error'].map((p) => `| \`${p}\` |`),
      ...['font', 'bg', 'fg', 'muted', 'border', 'up', 'down', 'accent', 'radius'].map((p) => `--price-board-${p}`),
    ];
    for (const name of names) expect(readme, name).toContain(name);
  });
});
