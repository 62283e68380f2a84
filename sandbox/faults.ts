// Fault injection for tests: rules scoped by path prefix and key, each applying to the next
// `count` matching requests (or forever). With no rules the normal path is untouched.

export const FAULT_KINDS = [
  'status',
  'rate_limit',
  'slow',
  'hang',
  'malformed',
  'drop_stream',
  'omit_symbol',
  'redirect',
  'huge_history',
  'poison_stream',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** Path prefix, e.g. "/v1/prices"; default every /v1 path. */
  path?: string;
  /** Only requests with exactly this `X-API-Key` value. */
  key?: string;
  kind: FaultKind;
  status?: number;
  retryAfter?: number | string;
  delayMs?: number;
  body?: string;
  afterEvents?: number;
  symbol?: string;
  /** 'redirect': the `Location` (default: the same path on the same origin). */
  location?: string;
  /** 'poison_stream': how many bytes of one unterminated `data:` line follow the snapshot (default 5,000,000). */
  bytes?: number;
  /** 'huge_history': how many `[t, v]` points (default 1,000,000)... */
  points?: number;
  /** ...spread evenly over this many days up to now (default 365). */
  spanDays?: number;
  count?: number;
}

/** What the matching rules do to one request. */
export interface FaultPlan {
  delayMs: number;
  /** A rule that answers instead of the service: status, rate_limit, hang or malformed. */
  answer?: FaultRule;
  omit: Set<string>;
  /** Streams only: destroy the connection after this many events. */
  dropAfter?: number;
  /** Streams only (fault `poison_stream`): raw bytes sent right after the snapshot. */
  poison?: string;
}

const TERMINAL: ReadonlySet<FaultKind> = new Set([
  'status',
  'rate_limit',
  'hang',
  'malformed',
  'redirect',
  'huge_history',
]);

/** JSON types allowed for each field of a rule. */
const FIELD_TYPES: Record<string, string[]> = {
  path: ['string'],
  key: ['string'],
  kind: ['string'],
  status: ['number'],
  retryAfter: ['number', 'string'],
  delayMs: ['number'],
  body: ['string'],
  afterEvents: ['number'],
  symbol: ['string'],
  location: ['string'],
  points: ['number'],
  spanDays: ['number'],
  bytes: ['number'],
  count: ['number'],
};

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Checks a `{ rules }` body; throws an Error naming the first problem. */
export function parseRules(body: unknown): FaultRule[] {
  if (!isObject(body) || !Array.isArray(body.rules)) throw new Error('body must be { "rules": [FaultRule] }');
  return body.rules.map((rule: unknown, i) => {
    if (!isObject(rule) || !FAULT_KINDS.includes(rule.kind as FaultKind)) {
      throw new Error(`rules[${i}].kind must be one of ${FAULT_KINDS.join(', ')}`);
    }
    for (const [name, value] of Object.entries(rule)) {
      const allowed = FIELD_TYPES[name];
      if (!allowed) throw new Error(`rules[${i}].${name} is not a fault field`);
      if (!allowed.includes(typeof value)) throw new Error(`rules[${i}].${name} must be a ${allowed.join(' or ')}`);
    }
    if (rule.kind === 'omit_symbol' && rule.symbol === undefined)
      throw new Error(`rules[${i}]: omit_symbol needs "symbol"`);
    return { ...rule } as unknown as FaultRule;
  });
}

export class Faults {
  rules: FaultRule[] = [];

  /** The plan for a request, consuming one use of each rule that applies. */
  take(path: string, key: string | undefined, isStream: boolean): FaultPlan {
    const plan: FaultPlan = { delayMs: 0, omit: new Set() };
    if (this.rules.length === 0) return plan;
    const used: FaultRule[] = [];
    let slow: FaultRule | undefined;
    let drop: FaultRule | undefined;
    let poison: FaultRule | undefined;
    for (const rule of this.rules) {
      if (!path.startsWith(rule.path ?? '/v1') || (rule.key !== undefined && rule.key !== key)) continue;
      if (rule.kind === 'slow' && !slow) used.push((slow = rule));
      else if (rule.kind === 'drop_stream' && isStream && !drop) used.push((drop = rule));
      else if (rule.kind === 'poison_stream' && isStream && !poison) used.push((poison = rule));
      else if (rule.kind === 'omit_symbol') used.push(rule);
      else if (TERMINAL.has(rule.kind) && !plan.answer) used.push((plan.answer = rule));
    }
    for (const rule of used) {
      if (rule.kind === 'omit_symbol') plan.omit.add(rule.symbol!);
      if (rule.count !== undefined) rule.count -= 1;
    }
    this.rules = this.rules.filter((r) => r.count === undefined || r.count > 0);
    plan.delayMs = slow?.delayMs ?? (slow ? 1000 : 0);
    if (drop) plan.dropAfter = drop.afterEvents ?? 1;
    if (poison) plan.poison = `data: ${'x'.repeat(poison.bytes ?? 5_000_000)}`;
    return plan;
  }
}
