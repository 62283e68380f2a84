// Stand-in for @web/test-runner-commands under Vitest (see vitest.config.ts). Snapshot commands
// are not used by our tests; calling one says so instead of failing obscurely.
const unsupported = (name: string) => () => {
  throw new Error(`@web/test-runner-commands.${name} is not available under Vitest`);
};
export const getSnapshot = unsupported('getSnapshot');
export const getSnapshotConfig = unsupported('getSnapshotConfig');
export const getSnapshots = unsupported('getSnapshots');
export const saveSnapshot = unsupported('saveSnapshot');
export const removeSnapshot = unsupported('removeSnapshot');
export const compareSnapshot = unsupported('compareSnapshot');
export const executeServerCommand = unsupported('executeServerCommand');
