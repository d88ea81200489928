export declare const ALLOWED: Record<string, string[]>;
export declare const COMMAND_ONLY_NAMES: RegExp[];
export declare function folderOf(path: string): string | undefined;
export declare function importViolations(src?: string): string[];
export declare function rulesTable(): string;
