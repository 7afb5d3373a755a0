/** "Did you mean …?": the candidates nearest a mistyped word (edit distance with transpositions, or a shared prefix). */

function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

export function suggest(word: string, candidates: readonly string[]): string[] {
  const w = word.toLowerCase();
  const scored = candidates
    .map((c) => ({ c, d: distance(w, c.toLowerCase()) }))
    .filter(({ c, d }) => d <= Math.max(1, Math.floor(c.length * 0.4)) || (w.length >= 3 && c.toLowerCase().startsWith(w)));
  const best = Math.min(...scored.map((s) => s.d));
  return scored.filter((s) => s.d === best || s.c.toLowerCase().startsWith(w)).map((s) => s.c);
}
