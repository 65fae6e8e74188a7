import { escapeHtml } from "../domain/html";
import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import { plainClientName } from "../control/connections/client-name";
import { MAX_CLIENT_NAME } from "../control/connections/service";
import { SCOPE_DESCRIPTIONS, type Scope } from "../transport/scopes";

/**
 * The authorize pages, rendered by the Worker as plain HTML forms: no script, the account page's
 * stylesheet. Everything a client chose (its name, the redirect host, scope strings) is escaped:
 * registration is open, so those strings are an attacker's to pick.
 */

/** Security headers of every authorize page; `formTargets`: origins a form may end up at (the client's redirect). */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    // Form POSTs redirect to the client: browsers hold that redirect to form-action too.
    "Content-Security-Policy": `default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'${formTargets.map((t) => ` ${t}`).join("")}; frame-ancestors 'none'`,
    "X-Frame-Options": "DENY",
    // Not no-referrer: with it a browser sends `Origin: null` on our own form POSTs, and the Origin check is our CSRF guard.
    "Referrer-Policy": "same-origin",
  };
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>${escapeHtml(title)} · Todo &amp; Calendars</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/app.css">
</head>
<body>
  <header class="site-header"><div class="wrap site-header__inner"><p class="brand"><a href="/">Todo &amp; Calendars</a></p></div></header>
  <main id="main" class="wrap">
${body}
  </main>
</body>
</html>`;
}

/** Who asks, as the consent page must show it: the name, and that a registered name is only a claim. */
function clientBlock(details: ConsentDescription): string {
  const origin = details.clientDomain
    ? `Published by <strong>${escapeHtml(details.clientDomain)}</strong>.`
    : "This app registered itself: its name is not verified.";
  const loopback = details.redirectIsLoopback
    ? `<p class="alert alert--warning">Access will be sent to an app on this computer. Continue only if you just started connecting from it.</p>`
    : "";
  return `<p>${origin} Access will be sent to <strong id="redirect-host">${escapeHtml(details.redirectHost)}</strong>.</p>${loopback}`;
}

/** Its registered or published name, without bidi or control characters (client-name.ts). */
const clientName = (details: ConsentDescription) =>
  (plainClientName(details.clientName) || details.clientId).slice(0, MAX_CLIENT_NAME);

export interface SignInPage {
  details: ConsentDescription;
  /** The authorize URL's path and query: the form posts back to it. */
  action: string;
  email?: string;
  error?: string;
  /** The account asks for a one-time code: the form gets its field (and the password again). */
  askCode?: boolean;
}

export function signInPage({ details, action, email = "", error, askCode = false }: SignInPage): string {
  const name = escapeHtml(clientName(details));
  return layout(
    `Sign in to connect ${clientName(details)}`,
    `    <h1>Connect <span id="client-name">${name}</span></h1>
    <p class="lead">Sign in to your account. Then you decide whether <strong>${name}</strong> may use your tasks.</p>
    ${clientBlock(details)}
    <form class="card" method="post" action="${escapeHtml(action)}">
      <h2>Sign in</h2>
      ${error ? `<p class="form-error alert alert--error" role="alert">${escapeHtml(error)}</p>` : ""}
      <input type="hidden" name="step" value="sign-in">
      <div class="field">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" inputmode="email" required maxlength="254" value="${escapeHtml(email)}">
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
      </div>${
        askCode
          ? `
      <div class="field">
        <label for="code">One-time code</label>
        <p id="code-hint" class="hint">The 6 digits your authenticator app shows, or a recovery code.</p>
        <input id="code" name="code" type="text" autocomplete="one-time-code" inputmode="numeric" required maxlength="32" aria-describedby="code-hint">
      </div>`
          : ""
      }
      <button type="submit" class="button">Sign in</button>
      <p class="hint">No account yet? Create one on the <a href="/">account page</a>, then start connecting again.</p>
    </form>`,
  );
}

export interface ConsentPage {
  details: ConsentDescription;
  action: string;
  email: string;
  scopes: Scope[];
  handle: string;
  ticket: string;
}

export function consentPage({ details, action, email, scopes, handle, ticket }: ConsentPage): string {
  const name = escapeHtml(clientName(details));
  const allowed = scopes
    .map(
      (scope) =>
        `<li><strong>${escapeHtml(SCOPE_DESCRIPTIONS[scope])}</strong> (<code>${escapeHtml(scope)}</code>)</li>`,
    )
    .join("");
  return layout(
    `Allow ${clientName(details)}?`,
    `    <h1>Allow <span id="client-name">${name}</span> to use your account?</h1>
    <p>Signed in as <strong>${escapeHtml(email)}</strong>.</p>
    ${clientBlock(details)}
    <form class="card" method="post" action="${escapeHtml(action)}">
      <h2>${name} asks to</h2>
      <ul id="scopes">${allowed}</ul>
      <p class="hint">You can revoke this connection at any time on your account page, under AI connection.</p>
      <input type="hidden" name="step" value="consent">
      <input type="hidden" name="handle" value="${escapeHtml(handle)}">
      <input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
      <p class="dialog__actions">
        <button type="submit" name="decision" value="deny" class="button button--secondary">Deny</button>
        <button type="submit" name="decision" value="allow" class="button">Allow</button>
      </p>
    </form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(
    title,
    `    <h1>${escapeHtml(title)}</h1>
    <p class="alert alert--error" role="alert">${escapeHtml(message)}</p>
    <p>Go back to the app you were connecting and start again. <a href="/">Your account</a></p>`,
  );
}
