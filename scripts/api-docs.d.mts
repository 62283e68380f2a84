export declare const PAGES: Record<string, string>;
export declare const TAGS: string[];
export declare function readDeclarations(tags?: string[]): Map<string, Record<string, unknown>>;
export declare function readDeclaration(): Record<string, unknown>;
export declare function renderApi(declaration: Record<string, unknown>): string;
export declare function withApi(page: string, block: string): string;
