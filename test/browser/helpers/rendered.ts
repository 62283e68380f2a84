// A widget the relay rendered, in the page: the test relay's fragment (real HTTP), as a page
// whose module script arrives after its HTML (the element upgrades when the test defines it).
import { afterEach, expect } from 'vitest';
import { relay } from './board';

const hosts: HTMLElement[] = [];

/** Removes the fragments put in the page after each test of the file that calls it. */
export function useRendered(): void {
  afterEach(() => hosts.splice(0).forEach((host) => host.remove()));
}

/**
 * The fragment of `tag` for `query` (edited by `edit`), in the page, with `attributes` set on its
 * element (by default the test relay as its address); `appended` runs once it is in the document.
 */
export async function renderedWidget<T extends HTMLElement>(
  tag: string,
  query: string,
  edit: (html: string) => string = (html) => html,
  attributes: Record<string, string> = { 'base-url': relay.url() },
  appended: (el: T) => void = () => {},
): Promise<T> {
  const res = await fetch(`${relay.url()}/render/${tag}?${query}`);
  expect(res.status).toBe(200);
  const host = document.createElement('div');
  host.setHTMLUnsafe(edit(await res.text()));
  const el = host.querySelector(tag) as T;
  // The element's address is the relay that served its script (here, the test relay), unless told.
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  document.body.append(host);
  appended(el);
  hosts.push(host);
  return el;
}
