// Declarations for render-types.mjs, so that the TypeScript tests can call it.
export function renderTypes(document: Record<string, unknown>): Promise<string>;
