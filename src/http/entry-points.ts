import { PUBLIC, routesFor } from "./access";
// Text modules (wrangler `[[rules]]` for *.md, the default rule for *.txt): the repository files are
// bundled as-is, so the Worker serves them byte-identical without a build step or a static copy.
import llms from "../../llms.txt";
import skill from "../../SKILL.md";

/** The machine-readable entry points at the site root: /SKILL.md and /llms.txt. */
const files = [
  { path: "/SKILL.md", body: skill, type: "text/markdown; charset=utf-8" },
  { path: "/llms.txt", body: llms, type: "text/plain; charset=utf-8" },
] as const;

export const createEntryPointsApp = () =>
  routesFor(PUBLIC, (app) => {
    for (const file of files) {
      app.get(file.path, (c) =>
        c.body(file.body, 200, {
          "Content-Type": file.type,
          // Public and the same for everyone; a deploy changes it, so revalidate after an hour.
          "Cache-Control": "public, max-age=3600",
          "Access-Control-Allow-Origin": "*",
          "X-Content-Type-Options": "nosniff",
        }),
      );
    }
  });
