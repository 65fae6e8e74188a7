// axe-core in a page, for the browser suites (test/browser/*.mjs): one way to load it, run it and name what it found.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { root } from "./wrangler-dev.mjs";

/** WCAG 2.0 and 2.1, levels A and AA: what every page is held to. */
const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
let source;

/**
 * Runs axe-core on the page as it is now: `tags` null runs every rule. Resolves with each violation as a line
 * (rule, node count, the nodes) and the number of rules that passed.
 */
export async function axeViolations(page, { tags = WCAG_AA } = {}) {
  source ??= await readFile(join(root, "node_modules/axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  const result = await page.evaluate(
    (values) => window.axe.run(document, values ? { runOnly: { type: "tag", values } } : {}),
    tags,
  );
  return {
    found: result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.map((n) => n.target).join(", ")}`),
    passes: result.passes.length,
  };
}
