/**
 * The page's price clients: one per service and key, shared by what asks a service for more than
 * quotes (the chart's history, the spark lines), so identical requests in flight are one. Beside
 * its client a service keeps what each of them holds for it (a {@link ServicePart}). A page uses
 * one or two services: past {@link SERVICE_LIMIT}, the least recently used one that no part needs
 * is let go.
 */
import { PriceClient } from './client';
import { trimBaseUrl } from './urls';

/** Services kept at once. */
export const SERVICE_LIMIT = 8;

/** What one user keeps per service (the object is its name): made from the service's client at first use. */
export interface ServicePart<T> {
  make(client: PriceClient): T;
  /** Whether the service must stay (something on the page shows what it holds); default no. */
  busy?(value: T): boolean;
}

interface Entry {
  client: PriceClient;
  parts: Map<ServicePart<unknown>, unknown>;
}

const entries = new Map<string, Entry>();

const busy = (entry: Entry): boolean => {
  for (const [part, value] of entry.parts) if (part.busy?.(value)) return true;
  return false;
};

/** The page's `part` of the service at `baseUrl` with `apiKey`. */
export function servicePart<T>(baseUrl: string, apiKey: string | undefined, part: ServicePart<T>): T {
  // Told apart as the hub tells them (`connectionOf`; a shared function would cost the initial module 29 B gzip).
  const service = { baseUrl: trimBaseUrl(baseUrl), apiKey: apiKey || undefined };
  const key = JSON.stringify([service.baseUrl, service.apiKey ?? '']);
  const entry = entries.get(key) ?? { client: new PriceClient(service), parts: new Map() };
  // Most recently used last.
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > SERVICE_LIMIT)
    for (const [old, other] of entries)
      if (old !== key && !busy(other)) {
        entries.delete(old);
        break;
      }
  if (!entry.parts.has(part)) entry.parts.set(part, part.make(entry.client));
  return entry.parts.get(part) as T;
}
