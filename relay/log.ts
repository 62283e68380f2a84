/** One JSON line per notable event. The upstream key is masked in every line, whatever carried it. */
export type LogSink = (line: string) => void;

export interface Logger {
  (event: string, fields?: Record<string, unknown>): void;
}

export function createLogger(secret: string, sink: LogSink = (line) => process.stdout.write(`${line}\n`)): Logger {
  return (event, fields = {}) => {
    let line = JSON.stringify({ time: new Date().toISOString(), event, ...fields }, (_key, value: unknown) =>
      value instanceof Error ? { name: value.name, message: value.message } : value,
    );
    // Belt and braces: no code path logs the key on purpose, and none can by accident.
    if (secret) line = line.split(secret).join('[redacted]');
    sink(line);
  };
}
