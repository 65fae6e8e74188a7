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
// One field and what ends it, from where the last one ended: a quoted field, or text up to a comma or line break.
const FIELD = /(?:"((?:[^"]|"")*)"|([^",\r\n]*))(,|\r\n|\n|\r|$)/y;

export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let line = 1;
  let start = 1;
  FIELD.lastIndex = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (FIELD.lastIndex < text.length) {
    const at = FIELD.lastIndex;
    const match = FIELD.exec(text);
    if (!match || (match[3] === "" && FIELD.lastIndex < text.length)) {
      // A quote that does not close, or one inside an unquoted field.
      throw importError(
        line,
        text[at] === '"'
          ? 'a quoted field is never closed: a `"` is missing'
          : 'a `"` inside a field that does not start with one',
      );
    }
    const quoted = match[1];
    // A line break inside a field is kept as \n, however the file ends its lines.
    const cell = quoted === undefined ? match[2]! : quoted.replaceAll('""', '"').replaceAll("\r\n", "\n");
    if (quoted !== undefined) line += cell.split("\n").length - 1;
    cells.push(cell);
    if (match[3] !== ",") {
      records.push({ line: start, cells });
      cells = [];
      line++;
      start = line;
    }
    if (match[0] === "") break;
  }
  if (cells.length > 0) records.push({ line: start, cells: [...cells, ""] });
  return records;
}
