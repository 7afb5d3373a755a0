/**
 * Colour for terminal tables. chalk is imported only when colour is on, so
 * piped and machine output never load it.
 */
import type { Tone } from './types.js';

export interface Painter {
  header(text: string): string;
  tone(tone: Tone | undefined, text: string): string;
}

const plainPainter: Painter = { header: (text) => text, tone: (_tone, text) => text };

export async function loadPainter(color: boolean): Promise<Painter> {
  if (!color) return plainPainter;
  const { Chalk } = await import('chalk');
  // The caller already decided colour is wanted; chalk must not second-guess it from process.stdout.
  const chalk = new Chalk({ level: 1 });
  const tones: Record<Tone, (text: string) => string> = {
    bad: chalk.red,
    warn: chalk.yellow,
    good: chalk.green,
    dim: chalk.gray,
  };
  return {
    header: (text) => chalk.bold(text),
    tone: (tone, text) => (tone && text !== '' ? tones[tone](text) : text),
  };
}
