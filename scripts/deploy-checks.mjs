// What `npm run deploy` refuses, and the exact words it says. Pure functions, no I/O: scripts/deploy.mjs
// calls them before wrangler runs, and test/scripts/deploy.test.mjs holds them to these messages.

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

/**
 * Problems with ADMIN_TOKEN: `fromEnv` is the value in the deploying shell's environment (uploaded with the
 * deploy), `deployed` whether the Worker already has the secret.
 */
export function adminTokenProblems({ fromEnv, deployed }) {
  if (fromEnv !== undefined && fromEnv !== "") {
    return fromEnv.length >= MIN_ADMIN_TOKEN_LENGTH
      ? []
      : [
          `ADMIN_TOKEN in the environment has ${fromEnv.length} characters; use at least ${MIN_ADMIN_TOKEN_LENGTH} ` +
            `random ones: ADMIN_TOKEN="$(openssl rand -base64 32)" npm run deploy`,
        ];
  }
  if (deployed) return [];
  return [
    "ADMIN_TOKEN is not set: it guards PUT /admin/memberships, the route that grants Max. Deploy once with it in " +
      'the environment, and keep it somewhere safe: ADMIN_TOKEN="$(openssl rand -base64 32)" npm run deploy ' +
      "(later deploys keep it; change it with `npx wrangler secret put ADMIN_TOKEN`)",
  ];
}
