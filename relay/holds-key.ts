/** Whether text to be sent downstream holds the upstream key (as sent, or JSON-escaped). */
export function holdsKey(text: string, key: string): boolean {
  return key !== '' && (text.includes(key) || text.includes(JSON.stringify(key).slice(1, -1)));
}
