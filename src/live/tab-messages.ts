/**
 * What the tabs of one connection say to each other over their `BroadcastChannel` (`tabs.ts`):
 * each message's shape, and a `PriceBoardError` as it crosses the channel.
 */
import { PriceBoardError } from '../shared/errors';
import type { Quote } from '../shared/types';
import type { ResumePoint, StreamFailure, StreamState } from './stream';

/** A `PriceBoardError` as it crosses the channel (a structured clone loses its class). */
export type WireError = Pick<PriceBoardError, 'code' | 'message' | 'messageFa' | 'status' | 'retryAfterMs' | 'data'>;

/** A message between the tabs: `from` is the sender's name, `to` a tab the quotes are for. */
export type Message =
  | { t: 'hello'; from: string; symbols: string[]; reply?: true }
  | { t: 'bye'; from: string }
  | { t: 'kick'; from: string }
  | { t: 'lead'; from: string }
  | { t: 'beat'; from: string; state: StreamState; resume?: ResumePoint }
  | { t: 'quotes'; from: string; to?: string; quotes: Quote[]; at?: string; resume?: ResumePoint }
  | { t: 'error'; from: string; error: WireError; failure: StreamFailure }
  | { t: 'unknown'; from: string; symbols: string[] }
  | { t: 'stop'; from: string; error: WireError; gaveUp: boolean };

export function toWire(error: PriceBoardError): WireError {
  // Its own fields (code, status, retryAfterMs, data), and the two an Error keeps elsewhere.
  return { ...error, message: error.message, messageFa: error.messageFa };
}

export function fromWire(wire: WireError): PriceBoardError {
  return new PriceBoardError(wire.code, wire.message, wire);
}
