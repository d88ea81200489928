export declare const ALLOWED: Record<string, string[]>;
export declare const NAMED_ONLY_IN: Array<{ name: RegExp; folders: string[] }>;
export declare function folderOf(path: string): string | undefined;
export declare function importViolations(src?: string): string[];
export declare function rulesTable(): string;
