import { type Account, type ApiKey, ApiError, api, type Membership } from "./api";
import { CONTROL_LABELS, refreshSessions, wireAccountControl, type ControlDeps } from "./account-control";
import { renderConnection, wireCopyButtons } from "./connection";
import { refreshBilling, wireBilling } from "./billing";
import { refreshConnections } from "./connections";
import { refreshFeed, wireFeed } from "./events";
import { refreshNotifications, wireNotifications } from "./notifications";
import { refreshWebhooks, wireWebhooks } from "./webhooks";
import { announce, busy, byId, formatDateTime, h, timeElement } from "./dom";
import { clearErrors, showApiError, showErrors } from "./forms";
import { confirmRevoke, hideNewKey, renderKeys, showNewKey } from "./keys";
import { returnPath, session } from "./session";
import { endpointsFor } from "./snippets";
import { renderVerification, wireEmail } from "./email";
import { askForSignInCode, renderTotp, signInCode, wireTotp } from "./totp";
import { refreshPasskeys, wirePasskeys } from "./passkeys";
import { armPasskeyAutofill, endPasskeyAutofill, wirePasskeySignIn } from "./passkey-sign-in";
import { renderTimeZone, wireTimeZone } from "./time-zone";
import { refreshSecurityEvents, wireSignOutEverywhere } from "./security-events";

/** The account page: sign-up/sign-in, membership, and the AI connection section. */

const endpoints = endpointsFor(window.location.origin);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LABELS = { email: "Email", password: "Password", name: "Key name", timeZone: "Time zone", ...CONTROL_LABELS };
// What the Security and Your data sections need to know of the signed-in state.
let currentAccount: Account | null = null;
let currentKeys: ApiKey[] = [];
// An unverified account over a week old: the verification prompt comes before everything else (web/email.ts).
let verifyFirst = false;

function showNotice(message: string | null, kind: "info" | "error" = "info"): void {
  const notice = byId("notice");
  const error = byId("page-error");
  notice.hidden = kind !== "info" || !message;
  error.hidden = kind !== "error" || !message;
  (kind === "info" ? notice : error).textContent = message ?? "";
  if (message && kind === "info") error.textContent = "";
}

function showSignedOut(message: string | null = null): void {
  currentAccount = null;
  currentKeys = [];
  hideNewKey();
  renderConnection(endpoints, null);
  byId("loading").hidden = true;
  byId("signed-in").hidden = true;
  byId("session-bar").hidden = true;
  byId("signed-out").hidden = false;
  showNotice(message);
  void armPasskeyAutofill();
}

/**
 * A 401 on a session route means the session ended (signed out elsewhere or expired), except
 * `invalid_credentials`: a password asked again (password change, deletion) was wrong.
 */
function handleError(error: unknown, form?: HTMLFormElement): void {
  if (error instanceof ApiError && error.status === 401 && error.code !== "invalid_credentials") {
    session.clear();
    showSignedOut("Your session has ended. Please sign in again.");
    byId("sign-in-title").focus();
    return;
  }
  if (form) showApiError(form, error, LABELS);
  else
    showNotice(
      error instanceof ApiError ? error.detail : "Something went wrong. Reload the page and try again.",
      "error",
    );
}

function renderMembership(membership: Membership): void {
  const badge = byId("plan-badge");
  const detail = byId("plan-detail");
  if (membership.active) {
    badge.textContent = "Max";
    badge.className = "badge badge--max";
    detail.replaceChildren(
      ...(membership.expiresAt
        ? ["Active until ", timeElement(membership.expiresAt, formatDateTime), "."]
        : ["Active, with no end date."]),
    );
  } else {
    badge.textContent = "Free";
    badge.className = "badge badge--free";
    detail.replaceChildren(
      ...(membership.plan === "max" && membership.expiresAt
        ? ["Your Max membership ended on ", timeElement(membership.expiresAt, formatDateTime), "."]
        : ["Public holiday calendars only."]),
    );
  }
  byId("max-needed").hidden = membership.active;
  byId("max-ready").hidden = !membership.active;
}

function showAccount(account: Account): void {
  currentAccount = account;
  byId("session-email").textContent = account.email;
  byId("data-location").textContent =
    account.dataLocation === "eu"
      ? "Your tasks and lists are stored in the European Union (chosen at sign-up)."
      : "Your tasks and lists are stored near where the account is used (chosen at sign-up).";
  renderMembership(account.membership);
  renderTimeZone(account);
  verifyFirst = renderVerification(account);
  renderTotp(account);
  byId("loading").hidden = true;
  byId("signed-out").hidden = true;
  byId("signed-in").hidden = false;
  byId("session-bar").hidden = false;
}

async function refreshKeys(): Promise<void> {
  const token = session.get();
  if (!token) return;
  try {
    currentKeys = await api.listKeys(token);
    renderKeys(currentKeys, revoke);
  } catch (error) {
    handleError(error);
  }
}

async function enter(account: Account, focus: boolean): Promise<void> {
  endPasskeyAutofill();
  showNotice(null);
  showAccount(account);
  await Promise.all([
    refreshKeys(),
    refreshConnections((error) => handleError(error)),
    refreshSessions(control),
    refreshPasskeys(handleError),
    refreshSecurityEvents((error) => handleError(error)),
    refreshBilling(account, (error) => handleError(error)),
    refreshFeed((error) => handleError(error)),
    refreshNotifications((error) => handleError(error)),
    refreshWebhooks(account.membership.active, (error) => handleError(error)),
  ]);
  // SKILL.md links people to /#ai-connection, max_required and Stripe to /#billing; both exist only once signed in.
  if (verifyFirst) byId("verify-banner").focus();
  else if (window.location.hash === "#ai-connection") byId("ai-title").focus();
  else if (window.location.hash === "#billing") byId("membership-title").focus();
  else if (focus) byId("account-title").focus();
}

async function revoke(key: ApiKey): Promise<void> {
  const token = session.get();
  if (!token || !(await confirmRevoke(key))) return;
  try {
    await api.revokeKey(token, key.id);
    await refreshKeys();
    byId("keys-title").focus();
    announce(`Key “${key.name}” revoked. It stops working immediately.`);
  } catch (error) {
    handleError(error);
  }
}

function wireAuthForm(
  id: string,
  submit: (email: string, password: string) => Promise<{ token: string; account: Account }>,
  minPassword: number,
): void {
  const form = byId<HTMLFormElement>(id);
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showNotice(null);
    clearErrors(form);
    const email = (form.elements.namedItem("email") as HTMLInputElement).value.trim();
    const password = (form.elements.namedItem("password") as HTMLInputElement).value;
    const problems: Record<string, string> = {};
    if (!EMAIL.test(email)) problems.email = "Enter an email address, like name@example.com.";
    if (password.length < minPassword) {
      problems.password =
        minPassword > 1 ? `Password must be at least ${minPassword} characters.` : "Enter your password.";
    }
    if (Object.keys(problems).length) return showErrors(form, problems, "Please correct the marked fields.");
    try {
      await busy(button, "Please wait…", async () => {
        const result = await submit(email, password);
        session.set(result.token);
        form.reset();
        // Signed in from another page of this site (the tasks page's link): back there, unless the address waits.
        const next = returnPath();
        if (next && !renderVerification(result.account)) return window.location.assign(next);
        await enter(result.account, true);
      });
    } catch (error) {
      if (!askForSignInCode(error)) showApiError(form, error, LABELS);
    }
  });
}

function wireCreateKey(): void {
  const form = byId<HTMLFormElement>("create-key-form");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const name = byId<HTMLInputElement>("key-name").value.trim();
    if (!name) return showErrors(form, { name: "Give the key a name, for example the app that will use it." });
    const token = session.get();
    if (!token) return showSignedOut("Please sign in again.");
    try {
      await busy(button, "Creating…", async () => {
        const created = await api.createKey(token, name);
        form.reset();
        showNewKey(created, closeNewKey);
        renderConnection(endpoints, created.key);
        await refreshKeys();
      });
    } catch (error) {
      handleError(error, form);
    }
  });
}

function closeNewKey(): void {
  hideNewKey();
  renderConnection(endpoints, null);
  byId("key-name").focus();
  announce("The key panel is closed. The key is no longer shown on this page.");
}

function wireSignOut(): void {
  const button = byId<HTMLButtonElement>("sign-out");
  button.addEventListener("click", async () => {
    const token = session.get();
    session.clear();
    // Forget locally even if the server cannot be reached; the session then expires on its own.
    if (token) await api.logOut(token).catch(() => undefined);
    showSignedOut("You are signed out.");
    byId("sign-in-title").focus();
  });
}

async function showContact(): Promise<void> {
  try {
    const { contact } = await api.root();
    if (!contact) return;
    byId("contact").replaceChildren("To get Max, write to ", h("a", { href: `mailto:${contact}` }, contact), ".");
  } catch {
    // The generic wording in the page stays.
  }
}

const control: ControlDeps = {
  handleError,
  signedOut: (message) => {
    showSignedOut(message);
    byId("sign-in-title").focus();
  },
  account: () => currentAccount,
  keys: () => currentKeys,
};

/** The sign-up form's choice of where the data lives. */
const chosenLocation = () =>
  document.querySelector<HTMLInputElement>("#sign-up-form input[name=dataLocation]:checked")?.value === "eu"
    ? "eu"
    : "global";

async function start(): Promise<void> {
  renderConnection(endpoints, null);
  wireCopyButtons(document.body);
  wireAuthForm("sign-in-form", (email, password) => api.logIn({ email, password, code: signInCode() }), 1);
  wireAuthForm(
    "sign-up-form",
    (email, password) => api.signUp({ email, password, dataLocation: chosenLocation() }),
    10,
  );
  wireCreateKey();
  wireSignOut();
  wireSignOutEverywhere(control.signedOut, (error) => handleError(error));
  wireFeed((error) => handleError(error));
  wireNotifications((error) => handleError(error));
  wireWebhooks((error) => handleError(error));
  wireAccountControl(control);
  wireBilling((error) => handleError(error));
  wireTimeZone({ ...control, updated: (account) => (currentAccount = account) });
  wireEmail(handleError);
  wirePasskeys(handleError);
  wirePasskeySignIn(async ({ token, account }) => {
    session.set(token);
    await enter(account, true);
  });
  wireTotp({
    handleError,
    updated: (on) => {
      if (currentAccount) currentAccount = { ...currentAccount, totpEnabled: on };
    },
  });
  void showContact();

  const token = session.get();
  if (!token) return showSignedOut();
  try {
    await enter(await api.getAccount(token), false);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return handleError(error);
    byId("loading").hidden = true;
    showNotice(
      `Could not load your account. ${error instanceof ApiError ? error.detail : ""} Reload the page to try again.`,
      "error",
    );
  }
}

void start();
