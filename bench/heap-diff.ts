/**
 * Diffs two V8 heap snapshots of the same page (debugging aid for the memory section):
 *   npx tsx bench/heap-diff.ts bench/tmp/memory-warmup.heapsnapshot bench/tmp/memory-after-cycles.heapsnapshot [groups] [paths]
 * Objects keep their ids across snapshots of one session, so "new" = ids only in the second.
 * Prints the new objects by kind (native = Blink's C++ objects, not in `Runtime.getHeapUsage`),
 * the new compiled code (bytecode, machine code, feedback) by script and function, the new objects
 * grouped by type and constructor/name (count, self size), then for the biggest groups the
 * shortest retainer path from the GC roots of a few of their objects.
 * BENCH_HEAPDIFF_GROUPS="array:,object:Object": retainer paths of those groups too.
 */
import { readFileSync } from 'node:fs';

interface Snap {
  nodeFields: string[];
  edgeFields: string[];
  nodeTypes: string[];
  edgeTypes: string[];
  nodes: Uint32Array | number[];
  edges: number[];
  strings: string[];
}

function load(file: string): Snap {
  const j = JSON.parse(readFileSync(file, 'utf8'));
  const m = j.snapshot.meta;
  return {
    nodeFields: m.node_fields,
    edgeFields: m.edge_fields,
    nodeTypes: m.node_types[0],
    edgeTypes: m.edge_types[0],
    nodes: j.nodes,
    edges: j.edges,
    strings: j.strings,
  };
}

class Heap {
  readonly nf: number;
  readonly ef: number;
  readonly count: number;
  readonly firstEdge: Uint32Array;
  readonly #iType: number;
  readonly #iName: number;
  readonly #iId: number;
  readonly #iSize: number;
  readonly #iEdges: number;
  readonly #eType: number;
  readonly #eName: number;
  readonly #eTo: number;
  #retainers?: { first: Uint32Array; list: Uint32Array; edge: Uint32Array };
  #dist?: Int32Array;

  constructor(readonly s: Snap) {
    this.nf = s.nodeFields.length;
    this.ef = s.edgeFields.length;
    this.#iType = s.nodeFields.indexOf('type');
    this.#iName = s.nodeFields.indexOf('name');
    this.#iId = s.nodeFields.indexOf('id');
    this.#iSize = s.nodeFields.indexOf('self_size');
    this.#iEdges = s.nodeFields.indexOf('edge_count');
    this.#eType = s.edgeFields.indexOf('type');
    this.#eName = s.edgeFields.indexOf('name_or_index');
    this.#eTo = s.edgeFields.indexOf('to_node');
    this.count = s.nodes.length / this.nf;
    this.firstEdge = new Uint32Array(this.count + 1);
    let e = 0;
    for (let i = 0; i < this.count; i++) {
      this.firstEdge[i] = e;
      e += s.nodes[i * this.nf + this.#iEdges]! * this.ef;
    }
    this.firstEdge[this.count] = e;
  }
  type(i: number) {
    return this.s.nodeTypes[this.s.nodes[i * this.nf + this.#iType]!]!;
  }
  name(i: number) {
    return this.s.strings[this.s.nodes[i * this.nf + this.#iName]!]!;
  }
  id(i: number) {
    return this.s.nodes[i * this.nf + this.#iId]!;
  }
  size(i: number) {
    return this.s.nodes[i * this.nf + this.#iSize]!;
  }
  edgeType(e: number) {
    return this.s.edgeTypes[this.s.edges[e + this.#eType]!]!;
  }
  edgeName(e: number) {
    const t = this.edgeType(e);
    const v = this.s.edges[e + this.#eName]!;
    return t === 'element' || t === 'hidden' ? `[${v}]` : this.s.strings[v]!;
  }
  edgeTo(e: number) {
    return this.s.edges[e + this.#eTo]! / this.nf;
  }
  label(i: number) {
    const t = this.type(i);
    const n = this.name(i);
    return `${t}:${t === 'string' || t === 'concatenated string' ? JSON.stringify(n.slice(0, 40)) : n.slice(0, 80)}`;
  }

  /** Shortest distance from the root (node 0) along strong edges. */
  distances(): Int32Array {
    if (this.#dist) return this.#dist;
    const d = new Int32Array(this.count).fill(-1);
    d[0] = 0;
    let q = [0];
    while (q.length) {
      const next: number[] = [];
      for (const i of q)
        for (let e = this.firstEdge[i]!; e < this.firstEdge[i + 1]!; e += this.ef) {
          if (this.edgeType(e) === 'weak') continue;
          const to = this.edgeTo(e);
          if (d[to] === -1) {
            d[to] = d[i]! + 1;
            next.push(to);
          }
        }
      q = next;
    }
    return (this.#dist = d);
  }

  #buildRetainers() {
    if (this.#retainers) return this.#retainers;
    const counts = new Uint32Array(this.count + 1);
    for (let i = 0; i < this.count; i++)
      for (let e = this.firstEdge[i]!; e < this.firstEdge[i + 1]!; e += this.ef) counts[this.edgeTo(e)]!++;
    const first = new Uint32Array(this.count + 1);
    for (let i = 0; i < this.count; i++) first[i + 1] = first[i]! + counts[i]!;
    const fill = first.slice();
    const list = new Uint32Array(first[this.count]!);
    const edge = new Uint32Array(first[this.count]!);
    for (let i = 0; i < this.count; i++)
      for (let e = this.firstEdge[i]!; e < this.firstEdge[i + 1]!; e += this.ef) {
        const to = this.edgeTo(e);
        list[fill[to]!] = i;
        edge[fill[to]!++] = e;
      }
    return (this.#retainers = { first, list, edge });
  }

  /** Out-edges of `i` as [edge name, target]. */
  *out(i: number): Generator<[string, number]> {
    for (let e = this.firstEdge[i]!; e < this.firstEdge[i + 1]!; e += this.ef) yield [this.edgeName(e), this.edgeTo(e)];
  }
  /** Retainers of `i`. */
  *retainersOf(i: number): Generator<number> {
    const r = this.#buildRetainers();
    for (let k = r.first[i]!; k < r.first[i + 1]!; k++) if (this.edgeType(r.edge[k]!) !== 'weak') yield r.list[k]!;
  }
  /** The function (shared function info) a code object belongs to, and its script: nearest by retainers. */
  codeOwner(i: number): { fn: string; script: string } | undefined {
    let level = [i];
    const seen = new Set(level);
    for (let depth = 0; depth < 6 && level.length; depth++) {
      const next: number[] = [];
      for (const n of level) {
        let sfi = -1;
        if (this.name(n).startsWith('system / SharedFunctionInfo')) sfi = n;
        else if (this.type(n) === 'closure') for (const [name, to] of this.out(n)) if (name === 'shared') sfi = to;
        if (sfi >= 0) {
          let script = '?';
          for (const [name, to] of this.out(sfi))
            if (name === 'script') script = this.name(to).replace('system / Script / ', '');
          return { fn: this.name(sfi).replace(/^system \/ SharedFunctionInfo( \/ )?/, ''), script };
        }
        for (const r of this.retainersOf(n)) {
          const t = this.type(r);
          if (!seen.has(r) && (t === 'code' || t === 'closure')) {
            seen.add(r);
            next.push(r);
          }
        }
      }
      level = next;
    }
    return undefined;
  }

  /** The path from the root to `i`, each step through the retainer nearest to the root. */
  path(i: number): string[] {
    const d = this.distances();
    const r = this.#buildRetainers();
    const out: string[] = [];
    let cur = i;
    for (let guard = 0; cur !== 0 && guard < 40; guard++) {
      let best = -1;
      let bestEdge = -1;
      for (let k = r.first[cur]!; k < r.first[cur + 1]!; k++) {
        const from = r.list[k]!;
        const e = r.edge[k]!;
        if (this.edgeType(e) === 'weak' || d[from] === -1) continue;
        if (best === -1 || d[from]! < d[best]!) {
          best = from;
          bestEdge = e;
        }
      }
      if (best === -1) {
        out.push('(unreachable from root)');
        break;
      }
      out.push(`${this.label(best)} --${this.edgeType(bestEdge)}:${this.edgeName(bestEdge)}-->`);
      cur = best;
    }
    return out.reverse();
  }
}

const [a, b, groupsArg, pathsArg] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: tsx bench/heap-diff.ts before.heapsnapshot after.heapsnapshot [groups=40] [paths=8]');
  process.exit(2);
}
const before = new Heap(load(a));
const after = new Heap(load(b));
const beforeIds = new Set<number>();
let beforeTotal = 0;
for (let i = 0; i < before.count; i++) {
  beforeIds.add(before.id(i));
  beforeTotal += before.size(i);
}
const dist = after.distances();
let afterTotal = 0;
const groups = new Map<string, { count: number; size: number; samples: number[] }>();
for (let i = 0; i < after.count; i++) {
  afterTotal += after.size(i);
  if (beforeIds.has(after.id(i)) || dist[i] === -1) continue;
  const t = after.type(i);
  const key =
    t === 'string' || t === 'concatenated string' || t === 'sliced string'
      ? `${t}`
      : `${t}:${after.name(i).slice(0, 80)}`;
  let g = groups.get(key);
  if (!g) groups.set(key, (g = { count: 0, size: 0, samples: [] }));
  g.count++;
  g.size += after.size(i);
  if (g.samples.length < 50) g.samples.push(i);
}
const byType = new Map<string, { count: number; size: number }>();
for (const [k, g] of groups) {
  const t =
    k.startsWith('code:') || k.startsWith('native:')
      ? k.split(':')[0]!
      : k.split(':')[0]! === 'object' || k.split(':')[0]! === 'closure' || k.split(':')[0]! === 'array'
        ? 'js object/closure/array'
        : k.split(':')[0]!;
  const e = byType.get(t) ?? { count: 0, size: 0 };
  e.count += g.count;
  e.size += g.size;
  byType.set(t, e);
}
// New compiled code and its metadata, by script and by function.
const codeByScript = new Map<string, number>();
const codeByFn = new Map<string, number>();
for (let i = 0; i < after.count; i++) {
  if (after.type(i) !== 'code' || beforeIds.has(after.id(i)) || dist[i] === -1) continue;
  const owner = after.codeOwner(i);
  const script = owner?.script || '(no owner found)';
  codeByScript.set(script, (codeByScript.get(script) ?? 0) + after.size(i));
  const fn = `${script.split('/').pop()} ${owner?.fn ?? '?'}`;
  codeByFn.set(fn, (codeByFn.get(fn) ?? 0) + after.size(i));
}
const sorted = [...groups].sort((x, y) => y[1].size - x[1].size);
const newTotal = sorted.reduce((s, [, g]) => s + g.size, 0);
console.log(
  `self sizes: before ${beforeTotal} B (${before.count} nodes), after ${afterTotal} B (${after.count} nodes), Δ ${afterTotal - beforeTotal} B`,
);
console.log(`new reachable objects: ${newTotal} B in ${sorted.reduce((s, [, g]) => s + g.count, 0)} objects\n`);
console.log('by kind (native = Blink C++ objects, outside the JS heap that Runtime.getHeapUsage reports):');
for (const [t, e] of [...byType].sort((x, y) => y[1].size - x[1].size))
  console.log(`${String(e.size).padStart(9)} B ${String(e.count).padStart(7)} × ${t}`);
console.log('');
console.log('new code objects by script:');
for (const [k, v] of [...codeByScript].sort((x, y) => y[1] - x[1]).slice(0, 15))
  console.log(`${String(v).padStart(9)} B  ${k}`);
console.log('by function (top 25):');
for (const [k, v] of [...codeByFn].sort((x, y) => y[1] - x[1]).slice(0, 25))
  console.log(`${String(v).padStart(9)} B  ${k}`);
console.log('');
const nGroups = Number(groupsArg ?? 40);
for (const [k, g] of sorted.slice(0, nGroups))
  console.log(`${String(g.size).padStart(9)} B ${String(g.count).padStart(7)} × ${k}`);
const nPaths = Number(pathsArg ?? 8);
console.log('');
for (const [k, g] of sorted.slice(0, nPaths)) {
  console.log(`── ${k} (${g.count}, ${g.size} B); retainer paths of 3 samples:`);
  const seen = new Set<string>();
  for (const i of [g.samples[0]!, g.samples[Math.floor(g.samples.length / 2)]!, g.samples[g.samples.length - 1]!]) {
    const p = after.path(i).join('\n     ');
    if (seen.has(p)) continue;
    seen.add(p);
    console.log(`   ${after.label(i)} (${after.size(i)} B) ←\n     ${p}`);
  }
  console.log('');
}

// BENCH_HEAPDIFF_GROUPS="array:,object:Object": retainer paths of those groups too.
for (const k of (process.env.BENCH_HEAPDIFF_GROUPS ?? '').split(',').filter(Boolean)) {
  const g = groups.get(k);
  if (!g) continue;
  console.log(`── ${k} (${g.count}, ${g.size} B); retainers of up to 6 samples:`);
  const bySize = [...g.samples].sort((x, y) => after.size(y) - after.size(x));
  for (const i of [...bySize.slice(0, 3), ...g.samples.slice(0, 3)])
    console.log(`   ${after.label(i)} (${after.size(i)} B) ←\n     ${after.path(i).slice(-8).join('\n     ')}`);
  console.log('');
}
