export class BuildSetupError extends Error {
  constructor(message: string, hint: string);
  readonly hint: string;
}
export function findNodeGyp(env?: Record<string, string | undefined>, nodePath?: string): string;
export function reportBuildFailure(name: string, error: unknown): number;
