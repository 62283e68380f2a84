// docs/ARCHITECTURE.md is checked against the code: its list of layers is the one the linter
// keeps, every folder of src/ is in it, and every path it names exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
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

/** The folders outside src/ named in the code block after "Outside `src/`", but for those that may import anything. */
function documentedOutside(): string[] {
  const at = page.indexOf('Outside `src/`');
  const block = /```\n([\s\S]*?)```/.exec(page.slice(at))?.[1] ?? '';
  return [...block.matchAll(/^(\w+)\/\s+(.*)$/gm)].filter((m) => !/\banything$/.test(m[2]!)).map((m) => m[1]!);
}

/** The folders outside src/ that have an import rule of their own (`<folder>/**\/*.ts`). */
function lintedOutside(): string[] {
  const folders = new Set<string>();
  for (const entry of config) {
    if (!entry.rules?.['@typescript-eslint/no-restricted-imports']) continue;
    for (const f of entry.files ?? []) {
      const m = /^(\w+)\/\*\*\/\*\.ts$/.exec(f);
      if (m && m[1] !== 'src') folders.add(m[1]!);
    }
  }
  return [...folders];
}

/** The code blocks under "## The path of a quote": each a list of files, in the order a quote passes. */
function documentedPaths(): string[][] {
  const at = page.indexOf('## The path of a quote');
  const section = page.slice(at, page.indexOf('\n## ', at + 1));
  return [...section.matchAll(/```\n([\s\S]*?)```/g)].map((m) =>
    [...m[1]!.matchAll(/^\s*((?:src|relay)\/\S+\.ts)\s/gm)].map((f) => f[1]!),
  );
}

/** The repository files that `file` imports by a relative path (static, dynamic or type-only). */
function importsOf(file: string): string[] {
  const text = readFileSync(`${root}${file}`, 'utf8');
  const specifiers = [...text.matchAll(/\bfrom\s*'(\.[^']+)'|\bimport\(\s*'(\.[^']+)'\s*\)/g)].map(
    (m) => m[1] ?? m[2]!,
  );
  return specifiers.map((s) => normalize(join(dirname(file), s.endsWith('.ts') ? s : `${s}.ts`)));
}

describe('docs/ARCHITECTURE.md', () => {
  it('lists the layers that the lint configuration keeps, each once', () => {
    const documented = documentedLayers();
    expect(documented.length).toBeGreaterThan(0);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...lintedLayers()].sort());
  });

  it('lists the folders outside src/ that the lint configuration keeps', () => {
    expect(documentedOutside().length).toBeGreaterThan(3);
    expect([...documentedOutside()].sort()).toEqual(lintedOutside().sort());
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

  it("names the files of a quote's path, client, relay and render, each tied by an import to one named above it", () => {
    const paths = documentedPaths();
    expect(paths.map((p) => p[0]!.split('/')[0])).toEqual(['src', 'relay', 'relay']);
    for (const path of paths) {
      expect(path.length).toBeGreaterThanOrEqual(5);
      path.forEach((file, i) => {
        expect(existsSync(`${root}${file}`), file).toBe(true);
        if (i === 0) return;
        const before = path.slice(0, i);
        const tied = before.some((other) => importsOf(file).includes(other) || importsOf(other).includes(file));
        expect(tied, `${file} imports none of the files above it, nor do they import it`).toBe(true);
      });
    }
  });
});
