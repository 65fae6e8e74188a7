/**
 * The one way in to the Worker's lazily loaded modules: libraries that only one route group uses. Each is
 * declared by its types beside this file (`<name>.lazy.d.ts`, one `export { … } from "<package>"`), bundled
 * alone by scripts/build-lazy-modules.mjs into `<name>.lazy.js` (gitignored), and uploaded by wrangler as a
 * module of its own (wrangler.toml: `find_additional_modules`, `base_dir = "src/lazy"`, the ESModule rule).
 * Start-up neither parses nor evaluates them, and the main module's size budget does not count them
 * (scripts/check-bundle-size.mjs reports them apart): the first request of an isolate that needs one pays it.
 *
 * A library belongs here only if no other code imports it at run time (`import type` is fine): a second copy in
 * the main module would be a second set of its classes, and `instanceof` would fail between them.
 *
 * Each path must be written "./<file>", in this file: wrangler leaves the specifier as written, and the runtime
 * resolves it from the main module at the root of the upload, where the file sits under its own name.
 */

/** The `stripe` SDK, for the billing routes only (src/http/stripe.ts). */
export const loadStripe = () => import("./stripe.lazy.js").then((module) => module.default);

/** The OAuth provider library, for OAuth requests and /mcp with an OAuth token only (src/oauth/provider.ts). */
export const loadOAuthProvider = () => import("./oauth-provider.lazy.js");

/**
 * chrono-node (about 14 KiB gzip), for the dates of a Todoist CSV on import only: the verb loads it before its
 * transaction and hands it to the parser (src/domain/import/todoist-date.ts `DateReader`).
 */
export const loadChrono = () => import("./chrono.lazy.js");

/** The MCP SDK's server and the agents package's handler, for /mcp only (src/mcp/sdk.ts). */
export const loadMcpSdk = () => import("./mcp.lazy.js");

/** `otpauth` (TOTP), for turning one-time codes on and off and for sign-ins of accounts that use them. */
export const loadOtp = () => import("./otp.lazy.js");

/** `@simplewebauthn/server` (passkeys), for the passkey routes only (src/control/accounts/passkeys.ts). */
export const loadWebAuthn = () => import("./webauthn.lazy.js");
