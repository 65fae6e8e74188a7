// What `npm run deploy` refuses, and the exact words it says. Pure functions, no I/O (randomness aside):
// scripts/deploy.mjs calls them before wrangler runs, and test/scripts/deploy.test.mjs holds them to these messages.
import { randomBytes } from "node:crypto";

/** The address wrangler.toml ships with. Users see CONTACT_EMAIL in GET /api/v1/ and the OpenAPI document. */
export const EXAMPLE_CONTACT_EMAIL = "support@todo.example.com";

/** At least this many characters for an ADMIN_TOKEN given in the environment (`openssl rand -base64 32`: 44). */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

// RFC 2606 and RFC 6761 names: example.com/.net/.org and the reserved top-level names never reach anyone.
const RESERVED_HOST = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;

const isReservedHost = (host) => RESERVED_HOST.test(host);

/**
 * Problems with wrangler.toml's [vars] for a deploy: each a sentence that names the setting, why it matters and
 * what to write. Empty when the vars may be deployed.
 */
export function varProblems(vars) {
  const problems = [];
  const email = String(vars.CONTACT_EMAIL ?? "").trim();
  const emailHost = email.split("@")[1] ?? "";
  if (email === EXAMPLE_CONTACT_EMAIL || (email !== "" && isReservedHost(emailHost))) {
    problems.push(
      `CONTACT_EMAIL is "${email}", an example address, and GET /api/v1/ and the OpenAPI document show it to every user. ` +
        `Set your own in wrangler.toml [vars]: CONTACT_EMAIL = "support@your-domain.com"`,
    );
  } else if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
    problems.push(
      `CONTACT_EMAIL ${email ? `"${email}" is not an email address` : "is empty"}: GET /api/v1/ and the OpenAPI ` +
        `document show it to every user. Set it in wrangler.toml [vars]: CONTACT_EMAIL = "support@your-domain.com"`,
    );
  }

  const origin = String(vars.PUBLIC_ORIGIN ?? "").trim();
  const fix =
    'Set it in wrangler.toml [vars] to the origin users reach: PUBLIC_ORIGIN = "https://todo.your-domain.com" ' +
    '(a custom domain, see `routes`) or "https://todo-calendar.<your-subdomain>.workers.dev"';
  if (origin === "") {
    problems.push(`PUBLIC_ORIGIN is empty: links, problem types and OAuth would follow each request's Host. ${fix}`);
  } else {
    const url = URL.canParse(origin) ? new URL(origin) : undefined;
    if (url?.protocol !== "https:" || url.origin !== origin.replace(/\/$/, "")) {
      problems.push(`PUBLIC_ORIGIN "${origin}" is not an https origin (scheme and host, no path). ${fix}`);
    } else if (isReservedHost(url.hostname)) {
      problems.push(`PUBLIC_ORIGIN "${origin}" is an example host that nobody can reach. ${fix}`);
    }
  }
  return problems;
}

/** A fresh ADMIN_TOKEN: 32 random bytes from the system's CSPRNG, base64url (43 characters). */
export function generateAdminToken() {
  return randomBytes(32).toString("base64url");
}

// How `wrangler secret list` says the Worker does not exist yet (its first deploy): then it has no secret.
const WORKER_NOT_FOUND = /Worker "[^"]*"(?: \(env: [^)]*\))? not found/;

/**
 * What the deploy does with ADMIN_TOKEN. `fromEnv`: the value in the deploying shell's environment; `secretList`:
 * the result `{ ok, stdout, stderr }` of `wrangler secret list --format json`, asked only when `fromEnv` is empty.
 * Returns `{ upload, generated, problems }`: the token to upload with the deploy (undefined: keep the deployed one),
 * whether this run made it up (then it must be shown once), and what stops the deploy.
 * A token is generated only when the Worker surely has none: a list that failed for another reason (network,
 * permissions) refuses, rather than replace a token the operator holds.
 */
export function planAdminToken({ fromEnv, secretList, generate = generateAdminToken }) {
  if (fromEnv !== undefined && fromEnv !== "") {
    const problems =
      fromEnv.length >= MIN_ADMIN_TOKEN_LENGTH
        ? []
        : [
            `ADMIN_TOKEN in the environment has ${fromEnv.length} characters; use at least ${MIN_ADMIN_TOKEN_LENGTH} ` +
              "random ones, or leave it unset on the first deploy and `npm run deploy` makes one up and shows it once",
          ];
    return { upload: fromEnv, generated: false, problems };
  }
  if (secretList?.ok) {
    if (/"name":\s*"ADMIN_TOKEN"/.test(secretList.stdout)) return { upload: undefined, generated: false, problems: [] };
  } else if (!WORKER_NOT_FOUND.test(`${secretList?.stdout ?? ""}\n${secretList?.stderr ?? ""}`)) {
    return {
      upload: undefined,
      generated: false,
      problems: [
        "`wrangler secret list` failed, so whether the Worker already has ADMIN_TOKEN is unknown; not deploying " +
          "rather than replace it. Run `npm run deploy` again, or give the token: ADMIN_TOKEN=… npm run deploy",
      ],
    };
  }
  return { upload: generate(), generated: true, problems: [] };
}

/** The lines that show a generated ADMIN_TOKEN, once, after the deploy stored it. Empty for a given one. */
export function adminTokenNotice({ upload, generated }) {
  if (!generated) return "";
  return [
    "",
    "ADMIN_TOKEN (generated, now the Worker's secret; it guards PUT /admin/memberships, which grants Max):",
    "",
    `  ${upload}`,
    "",
    "Store this now: it is not shown again. Put it in your password manager; to replace it later:",
    "`npx wrangler secret put ADMIN_TOKEN`.",
    "",
  ].join("\n");
}

/**
 * What the deploy does with CREDENTIAL_SECRET, the key that signs API keys and feed URLs (src/domain/credential-mac.ts).
 * `secretList` as for planAdminToken. Returns `{ upload, problems }`: a fresh secret when the Worker surely has none
 * (its first deploy, or an upgrade from a release before signed keys: nothing was signed yet), never otherwise, since
 * a new secret invalidates every key and feed URL signed with the old one. Nobody needs to know it: it is not shown.
 */
export function planCredentialSecret({ secretList, generate = generateAdminToken }) {
  if (secretList?.ok) {
    if (/"name":\s*"CREDENTIAL_SECRET"/.test(secretList.stdout)) return { upload: undefined, problems: [] };
  } else if (!WORKER_NOT_FOUND.test(`${secretList?.stdout ?? ""}\n${secretList?.stderr ?? ""}`)) {
    return {
      upload: undefined,
      problems: [
        "`wrangler secret list` failed, so whether the Worker already has CREDENTIAL_SECRET is unknown; not deploying " +
          "rather than replace it (a new one would invalidate every API key and feed URL). Run `npm run deploy` again",
      ],
    };
  }
  return { upload: generate(), problems: [] };
}
