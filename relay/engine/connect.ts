/**
 * REDIS_URL → a cluster member's engine, with Redis's errors logged once per change (a Redis that
 * is away is retried every second; one line says so, not one a second).
 */
import { createLogger } from '../log';
import { RedisEngine } from './redis';

export async function connectCluster(url: string, log = createLogger('')): Promise<RedisEngine> {
  let last = '';
  const onError = (error: unknown): void => {
    const message = error instanceof Error ? error.message : String(error);
    if (message === last) return;
    last = message;
    log('redis_error', { message });
  };
  const engine = await RedisEngine.connect({ url, onError, log });
  engine.leader.onChange((isLeader) => {
    last = '';
    log('cluster_role', { role: isLeader ? 'leader' : 'follower' });
  });
  log('cluster_joined', { redis: url.replace(/\/\/[^@/]*@/, '//[redacted]@') });
  return engine;
}
