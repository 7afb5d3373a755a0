// Types for scripts/cjs-chunks.mjs, which the tests import.
export function reshapeChunk(code: string, name: string): string;
export function staticImports(code: string, file: string): string[];
export function assertNoCycles(imports: Map<string, string[]>): void;
