// No file in src/ over 300 lines (issue 17): one job per file. Run by `npm run check`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const LIMIT = 300;
const files = readdirSync("src", { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
  .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
const over = files
  .map((file) => [file, readFileSync(file, "utf8").split("\n").length - 1])
  .filter(([, lines]) => lines > LIMIT);
for (const [file, lines] of over) console.error(`${file}: ${lines} lines (at most ${LIMIT})`);
if (over.length) process.exit(1);
console.log(`src/: ${files.length} files, none over ${LIMIT} lines`);
