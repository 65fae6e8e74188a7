// Fails when src/ has an import circle (type-only imports included): shared pieces must live below the
// modules that use them. Reads every src/**/*.ts file's static and dynamic relative imports.
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

// Tarjan's strongly connected components: every component of more than one file is a circle.
let index = 0;
const stack = [];
const state = new Map();
const circles = [];
const connect = (file) => {
  const node = { index, low: index, onStack: true };
  index++;
  state.set(file, node);
  stack.push(file);
  for (const next of graph.get(file)) {
    if (!state.has(next)) {
      connect(next);
      node.low = Math.min(node.low, state.get(next).low);
    } else if (state.get(next).onStack) node.low = Math.min(node.low, state.get(next).index);
  }
  if (node.low === node.index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      component.push(relative(root, member));
    } while (member !== file);
    if (component.length > 1) circles.push(component.sort());
  }
};
for (const file of files) if (!state.has(file)) connect(file);

if (circles.length) {
  for (const circle of circles) console.error(`import circle of ${circle.length} files: ${circle.join(", ")}`);
  process.exit(1);
}
console.log(`no import circles among ${files.length} files in src/`);
