export declare const TAGS: string[];
export declare function readDeclarations(tags?: string[]): Map<string, Record<string, unknown>>;
export declare function readDeclaration(): Record<string, unknown>;
export declare function renderApi(declaration: Record<string, unknown>): string;
export declare function withApi(readme: string, block: string, tag?: string): string;
