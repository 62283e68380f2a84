// placeholder: replaced by the spark branch
/**
 * The `spark` cell's content (another branch's: a 7-day line per symbol). This placeholder has its
 * API only, so that the board's `spark` column builds: it draws nothing.
 */
import { nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';

export class SparkController implements ReactiveController {
  constructor(host: ReactiveControllerHost & HTMLElement, connection: () => { baseUrl: string; apiKey?: string }) {
    void connection;
    host.addController(this);
  }

  hostConnected(): void {}

  /** The symbols whose lines are wanted now. */
  want(symbols: string[]): void {
    void symbols;
  }

  /** The line of `symbol`, or nothing before its history is there. */
  render(symbol: string): unknown {
    void symbol;
    return nothing;
  }
}
