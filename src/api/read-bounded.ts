// Reading a body with a cap (src/api/request.ts for requests, http-error-map.ts for error bodies).

/**
 * The body as text, read chunk by chunk; `undefined` (the rest cancelled unread) as soon as it
 * is longer than `max` characters.
 */
export async function readBounded(response: Response, max: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let chunk; reader && !(chunk = await reader.read()).done;) {
      text += decoder.decode(chunk.value, { stream: true });
      if (text.length > max) return;
    }
  } finally {
    reader?.cancel().catch(() => {});
  }
  return text + decoder.decode();
}
