import { importError } from "./plan";

/** One record of a CSV file, with the line of the file it starts on (1-based), for error messages. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * RFC 4180 CSV: comma-separated, fields in double quotes may hold commas, line breaks and `""` for a
 * quote. Spreadsheets write a BOM and CRLF; both are accepted. A quoted field may span lines, so a
 * record's line is where it starts, and the next record's line counts the breaks inside it.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = "";
  let line = 1;
  let start = 1;
  let quoted = false;
  let quoteLine = 0;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    cells.push(cell);
    records.push({ line: start, cells });
    cells = [];
    cell = "";
  };
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else if (ch === "\r" && text[i + 1] === "\n") {
        // A line break inside a field is kept as \n, however the file ends its lines.
      } else {
        if (ch === "\n") line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === "") {
      quoted = true;
      quoteLine = line;
    } else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      line++;
      start = line;
    } else cell += ch;
  }
  if (quoted) throw importError(quoteLine, 'a quoted field is never closed: a `"` is missing');
  if (cell !== "" || cells.length > 0) endRecord();
  return records;
}
