/**
 * What the bench's diagnostic scripts share (`npx tsx bench/ab.ts`, `cpu.ts`, `live-ab.ts`,
 * `trace.ts`, `live-trace.ts`, `profile.ts`): the project's root, a bench server on each build they
 * measure and one browser, closed once the work is done, and a failure that ends the process.
 */
import { resolve } from 'node:path';
import type { Browser } from 'playwright';
import { launchBrowser } from './browser';
import { startBenchServer, type BenchServer } from './server';

export const ROOT = resolve(import.meta.dirname, '..');

/** The builds of `AB` (comma-separated dist folders; default: dist). */
export const abBuilds = (): string[] => (process.env.AB ?? 'dist').split(',');

/** For each of `builds`, an empty list of samples under each of `names`. */
export function samplesPer<K extends string>(builds: readonly string[], names: readonly K[]): Record<K, number[]>[] {
  return builds.map(() => Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>);
}

/**
 * Runs `work` with a bench server on each of `builds` (dist folders of ROOT; what follows a `|` in
 * an entry is the script's own option for it) and one browser, and closes them after.
 */
export async function withServers<T>(
  builds: string[],
  work: (servers: BenchServer[], browser: Browser) => Promise<T>,
): Promise<T> {
  const servers = await Promise.all(builds.map((d) => startBenchServer(ROOT, resolve(ROOT, d.split('|')[0]!))));
  const browser = await launchBrowser();
  try {
    return await work(servers, browser);
  } finally {
    await browser.close();
    for (const s of servers) await s.close();
  }
}

/** `withServers` for one build. */
export function withServer<T>(build: string, work: (server: BenchServer, browser: Browser) => Promise<T>): Promise<T> {
  return withServers([build], (servers, browser) => work(servers[0]!, browser));
}

/** Runs a script's `main`; a failure prints its stack and exits with 1. */
export function runScript(main: () => Promise<void>): void {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
