// Seeded randomness: a sequential PRNG for the market, and stateless hashes for the history (so a
// point's value depends only on the seed, the symbol and its time slot).

export type Random = () => number;

/** mulberry32: a small, fast, seedable PRNG with values in [0, 1). */
export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A standard normal variate (Box–Muller) from two uniforms. */
function boxMuller(u1: number, u2: number): number {
  return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
}

export function normal(random: Random): number {
  return boxMuller(random(), random());
}

/** FNV-1a of a string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A well-mixed 32-bit hash of two integers (murmur3 finaliser). */
function mix(a: number, b: number): number {
  let h = (a ^ Math.imul(b | 0, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A standard normal variate that depends only on `(seed, index)`. */
export function normalAt(seed: number, index: number): number {
  const a = mix(seed, index);
  return boxMuller(a / 4_294_967_296, mix(a, 0x5bd1e995) / 4_294_967_296);
}
