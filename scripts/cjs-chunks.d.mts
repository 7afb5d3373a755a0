// Types for scripts/cjs-chunks.mjs, which the tests import.
export function plainExports(code: string, name: string): string;
export function eagerModuleBodies(code: string): string;
export function staticImports(code: string, file: string): string[];
export function assertNoCycles(imports: Map<string, string[]>): void;
