/**
 * ETags of the relay's answers: a hash of the body. A large cached body (a history served again and
 * again) has its ETag kept rather than hashed once more per request.
 */
import { createHash } from 'node:crypto';

/** Bodies at least this long have their ETag kept, not hashed again per request. */
const KEPT_ETAG_CHARS = 64 * 1024;
/** Characters of the bodies whose ETags are kept (the cached bodies: memory holds them anyway). */
const KEPT_ETAGS_MAX_CHARS = 32 * 1024 * 1024;
/**
 * ETags of large bodies, computed once per body (a cached history served again and again is the
 * same body). Keyed by the body itself: looking one up costs no scan of it (V8 hashes a long
 * string by its length), and a body held twice compares equal by content.
 */
const keptEtags = new Map<string, string>();
let keptEtagChars = 0;

export function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}

/** `etagOf`, kept for a large body (a cached one, served again and again). */
export function keptEtagOf(body: string): string {
  const kept = keptEtags.get(body);
  if (kept) return kept;
  const etag = etagOf(body);
  if (body.length >= KEPT_ETAG_CHARS && body.length <= KEPT_ETAGS_MAX_CHARS) {
    // The oldest go first.
    for (const old of keptEtags.keys()) {
      if (keptEtagChars + body.length <= KEPT_ETAGS_MAX_CHARS) break;
      keptEtags.delete(old);
      keptEtagChars -= old.length;
    }
    keptEtags.set(body, etag);
    keptEtagChars += body.length;
  }
  return etag;
}
