/**
 * Bundled in place of the "zod" package (wrangler.toml `[alias]`); tests and types use the real one.
 *
 * @hono/zod-openapi imports `{ z }` and passes it as a value (to extend ZodType), so esbuild keeps
 * every export of zod's namespace, including `locales`: error messages in 64 languages, about a
 * quarter of the Worker (258 KiB minified). This module is zod with `locales` (and `core.locales`)
 * cut down to English, the locale zod configures by default; everything else is re-exported as is.
 */
import * as core from "./zod-core";
import * as self from "./zod";

export * from "zod/v4";
export { locales } from "./zod-core";
export { core };
// zod's own `z` is its namespace; this one is this module's, so it carries the smaller locales too.
// (Annotated: TypeScript cannot type a module that contains itself.)
export const z: typeof import("zod").z = self as never;
export default z;
