// Fails when src/ has an import circle (type-only imports included), between files or between its top-level
// folders: shared pieces must live below the modules that use them. Reads every src/**/*.ts file's static and dynamic relative imports.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..", "src");
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.ts$/.test(name) && !name.endsWith(".d.ts")) files.push(path);
  }
};
walk(root);

const candidates = (base) => [`${base}.ts`, `${base}/index.ts`, base];
const importsOf = (file) => {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']/g),
    ...text.matchAll(/import\(\s*["'](\.[^"']+)["']\s*\)/g),
  ].map((m) => m[1]);
  return specifiers
    .map((spec) => candidates(resolve(dirname(file), spec)).find((path) => files.includes(path)))
    .filter(Boolean);
};
const graph = new Map(files.map((file) => [file, importsOf(file)]));

// Tarjan's strongly connected components: every component of more than one node is a circle.
const circlesOf = (graph) => {
  let index = 0;
  const stack = [];
  const state = new Map();
  const circles = [];
  const connect = (node) => {
    const mark = { index, low: index, onStack: true };
    index++;
    state.set(node, mark);
    stack.push(node);
    for (const next of graph.get(node)) {
      if (!state.has(next)) {
        connect(next);
        mark.low = Math.min(mark.low, state.get(next).low);
      } else if (state.get(next).onStack) mark.low = Math.min(mark.low, state.get(next).index);
    }
    if (mark.low === mark.index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!state.has(node)) connect(node);
  return circles;
};

// Folders point only down: src/'s top-level folders (the files at src/ itself count as one, the entry)
// must not import each other in a circle, even when no two files do (docs/architecture.md, "Layers").
const folderOf = (file) => {
  const [first, ...rest] = relative(root, file).split("/");
  return rest.length ? first : "(entry)";
};
const folders = new Map();
for (const [file, imports] of graph) {
  const from = folderOf(file);
  if (!folders.has(from)) folders.set(from, new Set());
  for (const next of imports) if (folderOf(next) !== from) folders.get(from).add(folderOf(next));
}
const fileCircles = circlesOf(graph).map((c) => c.map((f) => relative(root, f)));
const folderCircles = circlesOf(folders);
for (const circle of fileCircles) console.error(`import circle of ${circle.length} files: ${circle.join(", ")}`);
for (const circle of folderCircles) {
  console.error(`folder circle: ${circle.join(" ⇄ ")}`);
  for (const from of circle) {
    for (const to of circle) {
      const edges = [...graph].flatMap(([file, imports]) =>
        folderOf(file) === from
          ? imports.filter((i) => folderOf(i) === to).map((i) => `${relative(root, file)} → ${relative(root, i)}`)
          : [],
      );
      // The thin direction is usually the wrong one: its imports are listed.
      if (from !== to && edges.length)
        console.error(
          `  ${from} → ${to}: ${edges.length} imports${edges.length <= 5 ? `\n    ${edges.join("\n    ")}` : ""}`,
        );
    }
  }
}
if (fileCircles.length || folderCircles.length) process.exit(1);
console.log(`no import circles among ${files.length} files and ${folders.size} folders in src/`);
