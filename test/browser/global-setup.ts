// Starts one real sandbox price service for the browser tests and hands its address to them
// (`inject('sandboxUrl')`). The page under test is on another origin, so CORS is exercised too.
import type { TestProject } from 'vitest/node';
import { startSandbox } from '../../sandbox/server';

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxUrl: string;
    /** `CHAOS=full` (npm run test:chaos): the reliability suite runs its long schedule. */
    chaos: boolean;
  }
}

export default async function setup(project: TestProject) {
  const sandbox = await startSandbox({ port: 0, market: 'open' });
  project.provide('sandboxUrl', sandbox.url);
  project.provide('chaos', process.env.CHAOS === 'full');
  return async () => {
    await sandbox.close();
  };
}
