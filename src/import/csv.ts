/**
 * A small RFC 4180 reader. Written here rather than taken from csv-parse because
 * the import report needs the line where each record STARTS (a quoted cell may
 * span lines) and errors in our own "line N: …" form, and it keeps the runtime
 * free of another dependency. Accepts CRLF or LF, a leading BOM, quoted cells
 * with doubled quotes; rejects a stray quote inside an unquoted cell, text after
 * a closing quote, and an unterminated quote.
 */

export interface CsvRecord {
  /** 1-based line where the record starts. */
  line: number;
  cells: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Every record, blank lines skipped. Throws CsvSyntaxError at the first malformed spot. */
export function readCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  const n = src.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    let endOfRecord = false;
    while (!endOfRecord) {
      let cell = '';
      if (src[i] === '"') {
        const quoteLine = line;
        i++;
        for (;;) {
          if (i >= n) throw new CsvSyntaxError(quoteLine, 'unterminated quoted cell (a " is never closed)');
          const c = src[i];
          if (c === '"') {
            if (src[i + 1] === '"') {
              cell += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') line++;
          cell += c;
          i++;
        }
        const after = src[i];
        if (after !== undefined && after !== ',' && after !== '\n' && !(after === '\r' && src[i + 1] === '\n')) {
          throw new CsvSyntaxError(line, `unexpected text after a closing quote: ${JSON.stringify(src.slice(i, i + 10))}`);
        }
      } else {
        while (i < n && src[i] !== ',' && src[i] !== '\n' && !(src[i] === '\r' && src[i + 1] === '\n')) {
          if (src[i] === '"') throw new CsvSyntaxError(line, 'a " inside an unquoted cell (quote the whole cell and double inner quotes)');
          cell += src[i];
          i++;
        }
      }
      cells.push(cell);
      if (i >= n) {
        endOfRecord = true;
      } else if (src[i] === ',') {
        i++;
      } else {
        i += src[i] === '\r' ? 2 : 1;
        line++;
        endOfRecord = true;
      }
    }
    if (cells.length === 1 && (cells[0] ?? '').trim() === '') continue;
    records.push({ line: start, cells });
  }
  return records;
}
