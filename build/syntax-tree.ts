import { parseAst } from 'vite';

/** A node of the syntax tree Vite's parser gives (ESTree): its type, where it is in the code, and its fields. */
export type SyntaxNode = { type: string; start: number; end: number; [field: string]: unknown };

/** A range of the code and the text that replaces it. */
export type Edit = { start: number; end: number; text: string };

const isNode = (value: unknown): value is SyntaxNode =>
  !!value && typeof value === 'object' && typeof (value as SyntaxNode).type === 'string';

/**
 * Calls `enter` on each node of `code`'s syntax tree, parents first, in source order; the nodes
 * inside one for which `enter` returns false are skipped (what it stands for is rewritten whole).
 */
export function walk(code: string, enter: (node: SyntaxNode) => boolean | void): void {
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.forEach(visit);
    if (isNode(value) && enter(value) === false) return;
    for (const key in value) if (key !== 'type') visit((value as Record<string, unknown>)[key]);
  };
  visit(parseAst(code));
}

/** `code` with each range replaced by its text (the ranges do not overlap), or null when there is none. */
export function applyEdits(code: string, edits: Edit[]): { code: string; map: null } | null {
  if (edits.length === 0) return null;
  let out = code;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return { code: out, map: null };
}

/** An identifier's name, or undefined for another node. */
export const nameOf = (node: unknown): string | undefined =>
  isNode(node) && node.type === 'Identifier' ? (node.name as string) : undefined;
