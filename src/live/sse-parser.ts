/**
 * Event-stream text as events (WHATWG HTML, "Server-sent events", parsing): lines end in CRLF, LF
 * or CR (a CR that ends a chunk waits for the next one's LF); a blank line dispatches the event
 * when it has a data line; comments and unknown fields are ignored; `id` is the event's own
 * (the stream keeps the last one), `retry` only when all digits. The decoder drops a BOM.
 */

/** What an event stream's text turns into. */
export interface SseParserHooks {
  /** One event; `name` is `message` when the server gave none. */
  onEvent(name: string, data: string, id: string | undefined): void;
  onRetry?(ms: number): void;
}

/**
 * A parser: feed it the decoded text as it comes. It returns false once an unterminated line
 * and the data of the event being read add up to more than `maxChars`: a broken stream.
 */
export function sseParser(hooks: SseParserHooks, maxChars: number): (text: string) => boolean {
  // An unterminated line, in pieces: joined only when a line ends (a long line is not copied again per chunk).
  let pending: string[] = [];
  let pendingChars = 0;
  let data: string[] | undefined;
  let dataChars = 0;
  let name = '';
  let id: string | undefined;
  const line = (text: string): void => {
    if (text === '') {
      if (data) hooks.onEvent(name || 'message', data.join('\n'), id);
      data = id = undefined;
      name = '';
      dataChars = 0;
      return;
    }
    const colon = text.indexOf(':');
    if (colon === 0) return; // a comment (heartbeats)
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + (text[colon + 1] === ' ' ? 2 : 1));
    if (field === 'data') {
      (data ??= []).push(value);
      dataChars += value.length;
    } else if (field === 'event') name = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) hooks.onRetry?.(Number(value));
  };
  return (chunk) => {
    if (/[\r\n]/.test(chunk)) {
      const text = pending.join('') + chunk;
      // A CR at the end may be the first half of a CRLF.
      const end = text.endsWith('\r') ? text.length - 1 : text.length;
      const lines = text.slice(0, end).split(/\r\n|\r|\n/);
      const rest = lines.pop()! + text.slice(end);
      for (const each of lines) line(each);
      pending = [rest];
      pendingChars = rest.length;
    } else {
      pending.push(chunk);
      pendingChars += chunk.length;
    }
    return pendingChars + dataChars <= maxChars;
  };
}
