/**
 * The error for a failed HTTP response, for the client (`request.ts`) and the stream
 * (`live/sse.ts`). The mapping itself (`http-error-map.ts`: the service's error body, the status,
 * `Retry-After`) loads only when a response fails; if it cannot load, the promise rejects and the
 * caller sees a network failure.
 */
import type { PriceBoardError } from '../shared/errors';

/** See `http-error-map.ts`. */
export async function errorFromResponse(
  response: Response,
  context: { what: string; apiKey?: string; now?: number },
): Promise<PriceBoardError> {
  return (await import('./http-error-map')).errorFromResponse(response, context);
}
