import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../../src/control/api-keys/format";
import { MAX_BODY_BYTES } from "../../src/transport/validation";
import { ADMIN_TOKEN, BASE, createKey, json, maxUser, signUp } from "../helpers";

/**
 * The documented order holds for every body problem on every authenticated route: 401 (no or
 * dead credentials), then 403 (no Max), then 400/413 for the body itself.
 */

interface BodyProblem {
  label: string;
  status: 400 | 413;
  headers: Record<string, string>;
  body?: () => BodyInit;
}

const oversized = "x".repeat(MAX_BODY_BYTES + 1);
/** A body sent without Content-Length (chunked), so its size is only known while it is read. */
const streamed = (text: string) => new Blob([text]).stream();

const bodyProblems: BodyProblem[] = [
  { label: "text/plain", status: 400, headers: { "content-type": "text/plain" }, body: () => '{"title":"x"}' },
  { label: "no Content-Type", status: 400, headers: {}, body: () => new TextEncoder().encode('{"title":"x"}') },
  {
    label: "a JSON media type that is not JSON",
    status: 400,
    headers: { "content-type": "application/x;y+json" },
    body: () => '{"title":"x"}',
  },
  { label: "malformed JSON", status: 400, headers: { "content-type": "application/json" }, body: () => "{broken" },
  { label: "an empty JSON body", status: 400, headers: { "content-type": "application/json" } },
  {
    label: "a declared size over the limit",
    status: 413,
    headers: { "content-type": "application/json" },
    body: () => `"${oversized}"`,
  },
  {
    label: "a streamed size over the limit",
    status: 413,
    headers: { "content-type": "application/json" },
    body: () => streamed(`"${oversized}"`),
  },
];

function send(method: string, path: string, problem: BodyProblem, token?: string): Promise<Response> {
  const headers = new Headers(problem.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  const body = problem.body?.() ?? null;
  return exports.default.fetch(
    new Request(`${BASE}${path}`, {
      method,
      headers,
      body,
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    }),
  );
}

async function expectProblem(res: Response, status: number, code: string, what: string) {
  const body = await json(res);
  expect({ status: res.status, code: body.code }, what).toEqual({ status, code });
  expect(res.headers.get("content-type"), what).toBe("application/problem+json");
}

const bodyCode = (problem: BodyProblem) => (problem.status === 413 ? "payload_too_large" : "validation_failed");

interface Credential {
  label: string;
  token?: string;
  /** What the credential hears whatever the body; 0 for one that is let in (then the body's own problem). */
  status: number;
  code: string;
}

/** Each route, with each credential, sent `problem`: the credential's refusal first, else the body's. */
async function expectInOrder(
  routes: { method: string; path: string }[],
  credentials: Credential[],
  problem: BodyProblem,
) {
  for (const route of routes) {
    for (const who of credentials) {
      const res = await send(route.method, route.path, problem, who.token);
      const what = `${route.method} ${route.path} with ${who.label} and ${problem.label}`;
      if (who.status) await expectProblem(res, who.status, who.code, what);
      else await expectProblem(res, problem.status, bodyCode(problem), what);
    }
  }
}

const TASK_ID = "0193c000-0000-7000-8000-000000000000";
const taskWrites = [
  { method: "POST", path: "/api/v1/tasks" },
  { method: "PATCH", path: `/api/v1/tasks/${TASK_ID}` },
];

describe("credentials before the body on the task routes", () => {
  let credentials: Credential[];

  beforeAll(async () => {
    const max = await maxUser("order-max");
    const free = await signUp("order-free");
    const freeKey = await createKey(free.session);
    const revoked = await maxUser("order-revoked");
    const revocation = await exports.default.fetch(
      new Request(`${BASE}/account/api-keys/${revoked.keyId}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${revoked.session}` },
      }),
    );
    expect(revocation.status).toBe(204);
    credentials = [
      { label: "no key", status: 401, code: "unauthorized" },
      {
        label: "an unknown key",
        token: await generateApiKey(env.CREDENTIAL_SECRET, crypto.randomUUID()),
        status: 401,
        code: "unauthorized",
      },
      { label: "a revoked key", token: revoked.key, status: 401, code: "unauthorized" },
      { label: "a key without Max", token: freeKey.key, status: 403, code: "max_required" },
      { label: "a Max key", token: max.key, status: 0, code: "" },
    ];
  });

  for (const problem of bodyProblems) {
    it(`answers ${problem.label} with 401, then 403, then ${problem.status}`, async () => {
      await expectInOrder(taskWrites, credentials, problem);
    });
  }
});

describe("credentials before the body on the tasks page's routes (the same handlers, for a session)", () => {
  const pageWrites = [
    { method: "POST", path: "/account/tasks" },
    { method: "PATCH", path: `/account/tasks/${TASK_ID}` },
    { method: "POST", path: "/account/lists" },
    { method: "PATCH", path: "/account/lists/groceries" },
  ];
  let credentials: Credential[];

  beforeAll(async () => {
    const max = await maxUser("order-page-max");
    const free = await signUp("order-page-free");
    credentials = [
      { label: "no session", status: 401, code: "unauthorized" },
      { label: "an unknown session", token: `todo_sess_${"A".repeat(43)}`, status: 401, code: "unauthorized" },
      { label: "an API key", token: max.key, status: 401, code: "unauthorized" },
      { label: "a session without Max", token: free.session, status: 403, code: "max_required" },
      { label: "a Max session", token: max.session, status: 0, code: "" },
    ];
  });

  for (const problem of bodyProblems) {
    it(`answers ${problem.label} with 401, then 403, then ${problem.status}`, async () => {
      await expectInOrder(pageWrites, credentials, problem);
    });
  }
});

describe("credentials before the body on the session and admin routes", () => {
  let session: string;

  beforeAll(async () => {
    session = (await signUp("order-session")).session;
  });

  const unknownSession = `todo_sess_${"A".repeat(43)}`;
  const routes = () => [
    { method: "PATCH", path: "/account", token: session, bad: unknownSession },
    { method: "POST", path: "/account/api-keys", token: session, bad: unknownSession },
    { method: "PUT", path: "/admin/memberships", token: ADMIN_TOKEN, bad: "not-the-admin-token" },
  ];

  for (const problem of bodyProblems) {
    it(`answers ${problem.label} with 401 without a valid token, ${problem.status} with one`, async () => {
      for (const route of routes()) {
        const what = `${route.method} ${route.path} with ${problem.label}`;
        await expectProblem(await send(route.method, route.path, problem), 401, "unauthorized", `${what}, no token`);
        await expectProblem(
          await send(route.method, route.path, problem, route.bad),
          401,
          "unauthorized",
          `${what}, a wrong token`,
        );
        await expectProblem(
          await send(route.method, route.path, problem, route.token),
          problem.status,
          bodyCode(problem),
          `${what}, a valid token`,
        );
      }
    });
  }
});

describe("body checks on every write route", () => {
  it("refuses text/plain on every POST, PUT and PATCH route: 401 where credentials are needed, 400 where none are", async () => {
    const { createApp } = await import("../../src/app");
    const writes = createApp().routes.filter((r) => ["POST", "PUT", "PATCH"].includes(r.method));
    const paths = new Set(writes.map((r) => `${r.method} ${r.path.replace(/:[A-Za-z]+/g, TASK_ID)}`));
    const expected: Record<string, number> = {
      "POST /auth/signup": 400,
      "POST /auth/login": 400,
      // The mailed links' routes: public too (a link works without a session).
      "POST /auth/verify": 400,
      "POST /auth/password-reset": 400,
      "POST /auth/password-reset/confirm": 400,
      // Passkey sign-in: public, like /auth/login.
      "POST /auth/passkey/options": 400,
      "POST /auth/passkey": 400,
      // The OAuth authorize page's sign-in and consent form: public, like /auth/login.
      "POST /oauth/authorize": 400,
      // Stripe's webhook: public, its proof is the signature over the raw body; missing, it is 400 (docs/billing.md).
      "POST /billing/stripe/webhook": 400,
      // The "stop these emails" link: public, its signed token is its credential; missing, it is 400.
      "POST /email/unsubscribe": 400,
    };
    expect(paths.size).toBeGreaterThanOrEqual(7);
    for (const route of paths) {
      const [method, path] = route.split(" ") as [string, string];
      if (path.startsWith("/_bench")) continue;
      const res = await send(method, path, bodyProblems[0]!);
      // POST /auth/logout takes no body: its session is what is judged.
      expect(res.status, route).toBe(expected[route] ?? 401);
      await res.body?.cancel();
    }
  });
});
