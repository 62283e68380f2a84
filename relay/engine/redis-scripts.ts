/**
 * The Lua scripts of the Redis engine, one file each in `lua/` (its header says what it takes and
 * returns). Each runs atomically in Redis, which is what makes the fencing real: the check "is my
 * lock value still the current one?" and the write it guards (counting an upstream request,
 * numbering events) happen in one step, so a leader that was paused or cut off and has not yet
 * noticed can never spend or publish beside its successor.
 *
 * A lock value is `<fencing token>:<process id>`: the token comes from INCR (monotonic, and kept
 * above every token a process has seen, even after Redis lost its data), the process id makes two
 * holders distinct even if a restart ever handed out a token twice.
 *
 * Read once, as the module loads (a missing file stops the relay at start, not at its first Redis
 * call): from `lua/` beside this file when the relay runs from source (tsx, Vitest), from `lua/`
 * beside the built relay (relay/vite.config.ts copies them there and sets RELAY_LUA_DIR).
 */
import { readFileSync } from 'node:fs';

/** Where the `.lua` files are. */
export const LUA_DIR = new URL(import.meta.env?.RELAY_LUA_DIR ?? './lua/', import.meta.url);

/** Every script file read, by name (the test checks it against the directory). */
export const LUA_FILES: string[] = [];

function lua(name: string): string {
  LUA_FILES.push(`${name}.lua`);
  return readFileSync(new URL(`${name}.lua`, LUA_DIR), 'utf8');
}

export const ACQUIRE = lua('leader-acquire');
export const RENEW = lua('leader-renew');
export const RELEASE = lua('leader-release');

/** Defines `clock()` (Redis's time, and the plan's day): the budget scripts below start with it. */
export const BUDGET_CLOCK = lua('budget-clock');
export const TAKE = BUDGET_CLOCK + lua('budget-take');
export const SPENT = BUDGET_CLOCK + lua('budget-spent');
export const AGREE = lua('budget-agree');
export const MERGE = lua('budget-merge');

export const APPLY = lua('state-apply');
export const SINCE = lua('state-since');

/** The cache's keys, `forget()` and `balance()`: both cache scripts start with it. */
const CACHE_COMMON = lua('cache-common');
export const CACHE_SET = CACHE_COMMON + lua('cache-set');
export const CACHE_GET = CACHE_COMMON + lua('cache-get');

export const RECORD = lua('record');
