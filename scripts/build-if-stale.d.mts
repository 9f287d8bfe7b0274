// Declarations for build-if-stale.mjs, so that the TypeScript tests can call it.
export const buildInputs: readonly string[];
export const buildOutputs: readonly string[];
export const buildStamp: string;
export const compilerRecord: string;
export function whyBuild(root: string): string | undefined;
export function buildIsStale(root: string): boolean;
export function stampBuild(root: string): void;
export function buildIfStale(root: string, log?: (line: string) => void): boolean;
