export const FOLDERS: string[];
export function findCycles(folders?: string[], cwd?: string): Promise<string[][]>;
