/** A verb module's entry point, as its declaration (declare.ts) hands it the parsed values. */
import type { Handler } from './declare.js';

/** A verb module's entry point: its operands, its typed options, the context (and the command it runs as). */
export type Run<O> = Handler<O>;
