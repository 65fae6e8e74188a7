// Docs that name files must name files that exist (issue 33): a moved or deleted file leaves its old
// path in the prose, and a reader following it finds nothing. Run by `npm run check`.
//
// What counts as a file reference, in docs/*.md, README.md, SKILL.md and llms.txt:
// - a repository path: `src/…`, `test/…`, `scripts/…`, `web/…`, `migrations/…`, `docs/…` (a file or a
//   folder; `*` and `{a,b}` are expanded; a trailing `…` means "something in this folder");
// - a source file named without its root, like `listing-chunks.ts` or `control/key-directory.ts`, as a code
//   span of its own or in an untagged code block (the file maps): some file in the repository must end
//   with it. In prose and commands such a name is often a package (`ical.js`) or a command's output;
// - a relative Markdown link, like `[events](events.md)`, resolved from the document's folder.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOTS = ["src", "test", "scripts", "web", "migrations", "docs"];
const SOURCE = "(?:d\\.ts|ts|tsx|mjs|cjs|js|sql)";
// Not preceded by a path or word character, so a URL's `…/src/x.ts` or `node_modules/x/src/y.ts` is not ours.
const ROOTED = new RegExp(`(?<![\\w./@-])(?:${ROOTS.join("|")})/[\\w./*{},…-]*`, "g");
const BARE = new RegExp(`(?<![\\w./@:-])[\\w-]+(?:/[\\w.-]+)*\\.${SOURCE}(?![\\w/-])`, "g");
const FENCE = /^```(\w*)\n([\s\S]*?)^```/gm;
const SPAN = /`([^`\n]+)`/g;
const LINK = /\]\(([^)\s]+)\)/g;
/** Folders of installed or throw-away files: never a doc's subject. (static/ is built by `npm run assets`.) */
const SKIPPED = new Set(["node_modules", ".git", ".wrangler", "dist"]);

/** `a{b,c}d` → `abd`, `acd` (nested braces are not used in docs). */
export function expandBraces(path) {
  const match = /\{([^{}]*)\}/.exec(path);
  if (!match) return [path];
  const [head, tail] = [path.slice(0, match.index), path.slice(match.index + match[0].length)];
  return match[1].split(",").flatMap((part) => expandBraces(head + part + tail));
}

const globToRegExp = (glob) =>
  new RegExp(
    `^${glob.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\*\*\/?|\*/g, (s) => (s === "*" ? "[^/]*" : ".*"))}$`,
  );

/** Trailing prose punctuation and `:line` suffixes are not part of a path. */
const trimPath = (path) => path.replace(/:\d+$/, "").replace(/[.,:;]+$/, "");

/**
 * The repository's files and folders, as `/`-separated paths relative to the root, and a test for
 * whether a referenced path (maybe a glob, maybe a folder with a trailing `/` or `…`) names any.
 */
export function repositoryIndex(files) {
  const paths = new Set(files);
  for (const file of files) for (let d = posix.dirname(file); d !== "."; d = posix.dirname(d)) paths.add(d);
  const list = [...paths];
  const exists = (ref) =>
    expandBraces(ref.replace(/…$/, "").replace(/\/+$/, "")).every((one) =>
      one.includes("*") ? list.some((p) => globToRegExp(one).test(p)) : paths.has(one),
    );
  const endsAny = (name) => files.some((file) => file === name || file.endsWith(`/${name}`));
  return { exists, endsAny };
}

/** Line number (1-based) of a character offset. */
const lineOf = (text, offset) => text.slice(0, offset).split("\n").length;

/**
 * Every file reference in one document that names nothing in the repository.
 * `doc` is the document's path from the root; `index` comes from repositoryIndex.
 */
export function stalePaths(doc, text, index) {
  const found = [];
  const report = (offset, path) => found.push({ doc, line: lineOf(text, offset), path });
  const rootedSpans = [];
  for (const match of text.matchAll(ROOTED)) {
    const path = trimPath(match[0]);
    rootedSpans.push([match.index, match.index + match[0].length]);
    if (!index.exists(path)) report(match.index, path);
  }
  const insideRooted = (offset) => rootedSpans.some(([from, to]) => offset >= from && offset < to);
  const checkBare = (offset, name) => {
    if (!insideRooted(offset) && !index.endsAny(trimPath(name))) report(offset, trimPath(name));
  };
  const fences = [...text.matchAll(FENCE)];
  for (const fence of fences) {
    if (!["", "text", "txt"].includes(fence[1])) continue;
    const start = fence.index + fence[0].indexOf("\n") + 1;
    for (const match of fence[2].matchAll(BARE)) checkBare(start + match.index, match[0]);
  }
  // Code spans outside the blocks: the blocks blanked out, offsets kept.
  const prose = text.replace(FENCE, (block) => block.replace(/[^\n]/g, " "));
  const whole = new RegExp(`^${BARE.source}$`);
  for (const span of prose.matchAll(SPAN)) {
    const name = span[1].trim();
    if (whole.test(trimPath(name))) checkBare(span.index + 1, name);
  }
  for (const match of text.matchAll(LINK)) {
    const target = match[1].replace(/#.*$/, "");
    if (!target || /^[a-z][\w+.-]*:/i.test(target) || target.startsWith("/")) continue;
    const path = posix.normalize(posix.join(posix.dirname(doc), decodeURIComponent(target)));
    if (path.startsWith("..") || !index.exists(path)) report(match.index, match[1]);
  }
  return found.sort((a, b) => a.line - b.line);
}

/** The documents this check reads, relative to the root. */
export function documentsOf(root) {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);
  return [...docs, "README.md", "SKILL.md", "llms.txt"].filter((doc) => existsSync(join(root, doc)));
}

/** Every file under the root but built and installed ones, as `/`-separated relative paths. */
export function filesOf(root) {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(root, path).split("\\").join("/"));
    }
  };
  walk(root);
  return out;
}

export function checkDocPaths(root) {
  const index = repositoryIndex(filesOf(root));
  return documentsOf(root).flatMap((doc) => stalePaths(doc, readFileSync(join(root, doc), "utf8"), index));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The repository this script is in, or the folder given (its test runs it on a made-up one).
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..");
  const stale = checkDocPaths(root);
  for (const { doc, line, path } of stale) console.error(`${doc}:${line}: ${path} does not exist`);
  if (stale.length) process.exit(1);
  console.log(`docs: ${documentsOf(root).length} documents, every file they name exists`);
}
