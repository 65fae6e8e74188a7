import type { AuthRequest, ConsentDescription, OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { type Context, Hono, type Next } from "hono";
import { accountSecret } from "../control/accounts/reauthentication";
import { getAccount, normalizeEmail, verifyCredentials } from "../control/accounts/service";
import { checkSecondFactor } from "../control/accounts/totp";
import { createConnection, newConnectionId } from "../control/connections/service";
import { AppError, isAppError } from "../domain/errors";
import type { AppEnv } from "../transport/env";
import { readWithin } from "../transport/body";
import { publicOrigin } from "../transport/public-origin";
import { clientIp, consume, RATE_POLICIES } from "../transport/rate-limit";
import { limitLogin } from "../transport/sign-in";
import { ClientLookupTimeout, clientIdRefusal, withinLookupTime } from "./client-id";
import { isConsentTicketOf, issueConsentTicket, ticketAccountId } from "./consent-ticket";
import { consentPage, errorPage, pageHeaders, signInPage } from "./pages";
import { OAUTH_ENDPOINTS, oversized } from "../transport/oauth-paths";
import { grantedScopes } from "../transport/scopes";

/**
 * The authorization endpoint: the provider's defaultHandler serves it (src/oauth/provider.ts).
 * GET shows the sign-in form. POST `step=sign-in` checks the password under the sign-in limits of
 * /auth/login and shows the consent page; POST `step=consent` allows (a grant, a code, a D1 connection
 * row) or denies (`access_denied`). The authorization request itself is validated by the provider's
 * parseAuthRequest() and kept server-side by beginConsent() between the two steps.
 *
 * CSRF and clickjacking: both POSTs must come from this origin (`Origin`, when a browser sends one);
 * the consent handle works once, for ten minutes, only in the browser that received it (a `__Host-`
 * cookie); the consent ticket binds it to the account that signed in (consent-ticket.ts); every page
 * has `frame-ancestors 'none'` and `X-Frame-Options: DENY`.
 */

// A form of an email, a password and two tokens: anything larger is not ours.
const MAX_FORM_BYTES = 8192;

type C = Context<AppEnv>;

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const S256_SHAPE = "code_challenge must be 43 base64url characters (the SHA-256 of the code_verifier, unpadded)";

const page = (c: C, status: 200 | 400 | 403 | 404 | 429, html: string, headers: Record<string, string> = {}) =>
  c.body(html, status, { ...pageHeaders(), ...headers });

const library = () => import("./provider");

async function helpersFor(c: C): Promise<OAuthHelpers> {
  const { oauthApi } = await library();
  const api = oauthApi(c.env, publicOrigin(c.env, c.req.url));
  // Plain http off loopback (OAuth 2.1 needs https): there is no authorization server here.
  if (!api) throw new AppError("not_found", "OAuth is not available at this origin: use https.");
  return api;
}

/** The form's action: this very URL, whose query is the authorization request. */
const actionOf = (c: C) => {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
};

/**
 * The request's authorization parameters, validated by the provider, and what the page must show. An
 * invalid request is answered as the provider's docs say: back to the client with `error` when the
 * client and its redirect URI are known, else a page here (never a redirect to an unchecked URI).
 */
async function parseRequest(
  c: C,
  oauth: OAuthHelpers,
): Promise<{ request: AuthRequest; details: ConsentDescription } | Response> {
  const { AuthorizationError, CimdFetchError, authorizationErrorRedirect } = await library();
  const clientId = new URL(c.req.url).searchParams.get("client_id");
  if (oversized(clientId))
    return page(c, 400, errorPage("This connection request is invalid", "The client_id is too long."));
  const unverified = (why: string) => page(c, 400, errorPage("This app could not be verified", why));
  const refusal = clientId === null ? null : clientIdRefusal(clientId);
  if (refusal) return unverified(`Its client_id is not a URL this service fetches. ${refusal}`);
  try {
    // Parsing and describing only read (the client's document among them): safe to give up on.
    const parsed = await withinLookupTime(
      oauth.parseAuthRequest(c.req.raw).then(async (request) => ({
        request,
        details: await oauth.describeConsent(request),
      })),
    );
    // The library lets a confidential client skip PKCE; OAuth 2.1 as MCP profiles it does not, nor do we.
    const challenge = parsed.request.codeChallenge;
    if (!challenge)
      return c.redirect(authorizationErrorRedirect(parsed.request, "invalid_request", "PKCE (S256) is required"), 302);
    // RFC 7636 §4.2: an S256 challenge is a SHA-256 in base64url, 43 characters; §4.4.1 names the error.
    if (!S256_CHALLENGE.test(challenge))
      return c.redirect(authorizationErrorRedirect(parsed.request, "invalid_request", S256_SHAPE), 302);
    return parsed;
  } catch (e) {
    if (e instanceof ClientLookupTimeout) return unverified(e.message);
    if (e instanceof AuthorizationError && e.redirectTo) return c.redirect(e.redirectTo, 302);
    if (e instanceof AuthorizationError)
      return page(c, 400, errorPage("This connection request is invalid", e.description));
    if (e instanceof CimdFetchError) return unverified("Its client metadata document could not be read.");
    throw e;
  }
}

/** A POST that a page of another site sent is refused: our own forms send our Origin. */
function fromThisSite(c: C): boolean {
  const origin = c.req.header("origin");
  return origin === undefined || origin === publicOrigin(c.env, c.req.url) || origin === new URL(c.req.url).origin;
}

async function formOf(c: C): Promise<URLSearchParams | undefined> {
  const declared = Number(c.req.header("content-length") ?? 0);
  if (!c.req.raw.body) return new URLSearchParams();
  if (declared > MAX_FORM_BYTES) return undefined;
  const bytes = await readWithin(c.req.raw.body, MAX_FORM_BYTES);
  return bytes && new URLSearchParams(new TextDecoder().decode(bytes));
}

async function signIn(c: C, oauth: OAuthHelpers, form: URLSearchParams): Promise<Response> {
  const parsed = await parseRequest(c, oauth);
  if (parsed instanceof Response) return parsed;
  const { request, details } = parsed;
  const email = (form.get("email") ?? "").trim();
  const password = form.get("password") ?? "";
  const code = form.get("code") ?? undefined;
  const again = (status: 400 | 429, error: string, headers?: Record<string, string>, askCode = code !== undefined) =>
    page(c, status, signInPage({ details, action: actionOf(c), email: email.slice(0, 254), error, askCode }), headers);
  try {
    // The limits of /auth/login: per client IP, then per email (with the device budget), then the password.
    await consume(c.env, RATE_POLICIES.perIp, `auth:${clientIp(c.req.raw)}`, "sign-in attempts per client IP");
    if (!email || email.length > 254 || !password || password.length > 1024)
      return again(400, "Enter the email and password of your account.");
    await limitLogin(c, email);
    const account = await verifyCredentials(c.var.db, { email, password });
    await checkSecondFactor(c.var.db, { id: account.id, email: normalizeEmail(email) }, code);
    const consent = await oauth.beginConsent(request);
    const ticket = await issueConsentTicket(account, consent.handle);
    const view = await getAccount(c.var.db, account.id);
    const html = consentPage({
      details,
      action: actionOf(c),
      email: view?.email ?? email,
      scopes: grantedScopes(request.scope),
      handle: consent.handle,
      ticket,
    });
    const response = page(c, 200, html, pageHeaders([new URL(request.redirectUri).origin]));
    for (const cookie of consent.headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
    return response;
  } catch (e) {
    if (isAppError(e) && e.code === "invalid_credentials") return again(400, e.detail);
    if (isAppError(e) && e.code === "totp_required")
      return again(400, "Enter your password again and the one-time code from your authenticator app.", {}, true);
    if (isAppError(e) && e.code === "rate_limited")
      return again(429, e.detail, e.retryAfter === undefined ? {} : { "Retry-After": String(e.retryAfter) });
    throw e;
  }
}

/** The code's grant id: the provider's codes are `<user>:<grant>:<secret>`, as its tokens. */
function grantIdOf(redirectTo: string): string {
  const grantId = new URL(redirectTo).searchParams.get("code")?.split(":")[1];
  if (!grantId) throw new Error("authorization code without a grant id");
  return grantId;
}

async function decide(c: C, oauth: OAuthHelpers, form: URLSearchParams): Promise<Response> {
  const { AuthorizationError } = await library();
  const handle = form.get("handle") ?? "";
  const ticket = form.get("ticket") ?? "";
  const expired = () =>
    page(c, 400, errorPage("This page has expired", "The sign-in for this connection expired or was already used."));
  try {
    if (form.get("decision") === "deny") {
      const denied = await oauth.denyConsent(c.req.raw, handle);
      return new Response(null, { status: 302, headers: denied.headers });
    }
    if (form.get("decision") !== "allow")
      return page(c, 400, errorPage("Choose Allow or Deny", "No decision was sent."));
    const accountId = ticketAccountId(ticket);
    if (!accountId) return expired();
    const account = await accountSecret(c.var.db, accountId).catch(() => undefined);
    if (!account || !(await isConsentTicketOf(account, ticket, handle))) return expired();
    const approved = await oauth.approveConsent(c.req.raw, handle);
    const details = await oauth.describeConsent(approved.request);
    const scopes = grantedScopes(approved.request.scope);
    const connectionId = newConnectionId();
    const { redirectTo } = await oauth.completeAuthorization({
      request: approved.request,
      userId: account.id,
      metadata: { connectionId },
      scope: scopes,
      props: { connectionId },
    });
    await createConnection(c.var.db, c.env, {
      id: connectionId,
      accountId: account.id,
      grantId: grantIdOf(redirectTo),
      clientId: approved.request.clientId,
      clientName: details.clientName,
      redirectUri: approved.request.redirectUri,
      scopes,
    });
    approved.headers.set("Location", redirectTo);
    return new Response(null, { status: 302, headers: approved.headers });
  } catch (e) {
    if (e instanceof AuthorizationError) return page(c, 400, errorPage("This page has expired", e.description));
    throw e;
  }
}

/**
 * Every authorize request, before any work: each may make the provider fetch a client's document, so
 * an address gets the per-IP budget of sign-in (10 a minute, counted apart from it).
 */
async function limitAuthorize(c: C, next: Next) {
  try {
    await consume(c.env, RATE_POLICIES.perIp, `authorize:${clientIp(c.req.raw)}`, "authorize requests per client IP");
  } catch (e) {
    if (!isAppError(e) || e.code !== "rate_limited") throw e;
    return page(c, 429, errorPage("Too many requests", e.detail), { "Retry-After": String(e.retryAfter ?? 60) });
  }
  await next();
}

export function createAuthorizeApp() {
  const app = new Hono<AppEnv>();
  app.use(OAUTH_ENDPOINTS.authorize, limitAuthorize);

  app.get(OAUTH_ENDPOINTS.authorize, async (c) => {
    const parsed = await parseRequest(c, await helpersFor(c));
    if (parsed instanceof Response) return parsed;
    return page(c, 200, signInPage({ details: parsed.details, action: actionOf(c) }));
  });

  // A public form, like /auth/login: no credential to judge first, so the form's own checks come first.
  app.post(OAUTH_ENDPOINTS.authorize, async (c) => {
    if (!fromThisSite(c))
      return page(
        c,
        403,
        errorPage("Request refused", "This form was sent from another site. Start again from the app."),
      );
    const form = await formOf(c);
    if (!form) return page(c, 400, errorPage("Request refused", "The form is too large."));
    const step = form.get("step");
    if (step !== "sign-in" && step !== "consent")
      return page(c, 400, errorPage("Request refused", "The form is not one of this page's."));
    const oauth = await helpersFor(c);
    return step === "sign-in" ? signIn(c, oauth, form) : decide(c, oauth, form);
  });

  return app;
}
