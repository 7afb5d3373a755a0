/**
 * The units summary for people (stderr, terminals only), fitted to the terminal
 * width instead of wrapping mid-word: one line when it fits; else one line per
 * section (counts, stale, low battery) packed as tightly as the width allows;
 * on a very narrow terminal the stale and battery notes shorten and the counts
 * break after their commas.
 */
import { displayWidth } from '../../io/formats/render/width.js';

export interface SummaryParts {
  /** "15 devices", "4 sensors", … (never empty). */
  counts: string[];
  stale: number;
  /** e.g. "1d". */
  staleLabel: string;
  low: number;
  lowPct: number;
}

const SECTION = ' · ';

/** Greedy packing of `items` into lines of at most `width` cells, joined by `separator`. */
function pack(items: readonly string[], separator: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const candidate = line === '' ? item : `${line}${separator}${item}`;
    if (line !== '' && displayWidth(candidate) > width) {
      lines.push(line);
      line = item;
    } else {
      line = candidate;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function fits(lines: readonly string[], width: number): boolean {
  return lines.every((line) => displayWidth(line) <= width);
}

export function summaryLines(parts: SummaryParts, width: number): string[] {
  const counts = parts.counts.join(', ');
  const long = [counts, `${parts.stale} stale (no report in ${parts.staleLabel})`, `${parts.low} low on battery (<${parts.lowPct}%)`];
  const packed = pack(long, SECTION, width);
  if (fits(packed, width)) return packed;
  const short = [`${parts.stale} stale (>${parts.staleLabel})`, `${parts.low} low battery (<${parts.lowPct}%)`];
  // Counts break after a comma: every line but the last keeps its trailing comma.
  const countLines = pack(parts.counts.map((c, i) => (i < parts.counts.length - 1 ? `${c},` : c)), ' ', width);
  return [...countLines, ...pack(short, SECTION, width)];
}
