import { PUBLIC, routesFor } from "./access";

/**
 * The machine-readable entry points at the site root: /SKILL.md, the reference it links and /llms.txt. `npm run assets` copies
 * the repository's files into the static assets (scripts/build-docs.mjs), and the Worker sends their
 * bytes unchanged with its own headers: byte-identical to the repository, and not in the Worker bundle.
 */
const files = [
  { path: "/SKILL.md", type: "text/markdown; charset=utf-8" },
  // SKILL.md links it relatively (`references/REFERENCE.md`), so the link works here and on the forge.
  { path: "/references/REFERENCE.md", type: "text/markdown; charset=utf-8" },
  { path: "/llms.txt", type: "text/plain; charset=utf-8" },
] as const;

export const ENTRY_POINTS_ASSETS = "/vendor/entry-points";

export const createEntryPointsApp = () =>
  routesFor(PUBLIC, (app) => {
    for (const file of files) {
      app.get(file.path, async (c) => {
        const stored = await c.env.ASSETS.fetch(new URL(`${ENTRY_POINTS_ASSETS}${file.path}`, c.req.url));
        if (!stored.ok) throw new Error(`${file.path} is missing from the static assets: run npm run assets`);
        return new Response(stored.body, {
          headers: {
            "Content-Type": file.type,
            // Public and the same for everyone; a deploy changes it, so revalidate after an hour.
            "Cache-Control": "public, max-age=3600",
            "Access-Control-Allow-Origin": "*",
            "X-Content-Type-Options": "nosniff",
          },
        });
      });
    }
  });
