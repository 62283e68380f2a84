// docs/ARCHITECTURE.md is checked against the code: its list of layers is the one the linter
// keeps, every folder of src/ is in it, and every path it names exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const page = readFileSync(`${root}docs/ARCHITECTURE.md`, 'utf8');
// A variable specifier: eslint.config.js is plain JavaScript with no types.
const configFile = `${root}eslint.config.js`;
const config = ((await import(configFile)) as { default: { files?: string[]; rules?: Record<string, unknown> }[] })
  .default;

/** The folders named in the code block under "## Layers". */
function documentedLayers(): string[] {
  const section = page.slice(page.indexOf('## Layers'), page.indexOf('\n## ', page.indexOf('## Layers') + 1));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return [...block.matchAll(/^src\/(\w+)\//gm)].map((m) => m[1]!);
}

/** The folders of src/ that have a layer rule (no-restricted-imports on `src/<folder>/**`). */
function lintedLayers(): string[] {
  const layers: string[] = [];
  for (const entry of config) {
    if (!entry.rules?.['@typescript-eslint/no-restricted-imports']) continue;
    for (const f of entry.files ?? []) {
      const m = /^src\/(\w+)\/\*\*\/\*\.ts$/.exec(f);
      if (m) layers.push(m[1]!);
    }
  }
  return layers;
}

describe('docs/ARCHITECTURE.md', () => {
  it('lists the layers that the lint configuration keeps, each once', () => {
    const documented = documentedLayers();
    expect(documented.length).toBeGreaterThan(0);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...lintedLayers()].sort());
  });

  it('lists every folder of src/', () => {
    const folders = readdirSync(`${root}src`, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect([...documentedLayers()].sort()).toEqual(folders.sort());
  });

  it('names only files and folders that exist', () => {
    // Every code span that is a file with its folder (`src/live/hub.ts`, or `live/hub.ts` inside src/) or a folder (`relay/`).
    const paths = [...page.matchAll(/`((?:[\w.-]+\/)+(?:[\w-]+\.\w+)?)`/g)]
      .map((m) => m[1]!)
      .filter((p) => !p.startsWith('dist/')); // built files
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) expect(existsSync(`${root}${path}`) || existsSync(`${root}src/${path}`), path).toBe(true);
  });
});
