import { renderSVG } from "uqr";
import { type Account, ApiError, api } from "./api";
import { announce, busy, byId } from "./dom";
import { clearErrors, showApiError, showErrors } from "./forms";
import { session } from "./session";

/** Two-step sign-in on the account page: turn one-time codes on (QR, first code, recovery codes) and off. */

type Deps = { handleError: (error: unknown, form?: HTMLFormElement) => void; updated: (on: boolean) => void };
const LABELS = { code: "Code" };

const STATE = {
  on: "On: signing in asks for your password and a code from your authenticator app.",
  off: "Off: signing in asks for your password only.",
};

export function renderTotp(account: Pick<Account, "totpEnabled">): void {
  byId("totp-state").textContent = account.totpEnabled ? STATE.on : STATE.off;
  byId("totp-start-row").hidden = account.totpEnabled;
  byId("totp-off-form").hidden = !account.totpEnabled;
  byId("totp-setup").hidden = true;
}

/** The sign-in form's code field, shown once the server says the account asks for one. */
export const signInCode = () => {
  const field = byId("sign-in-code-field");
  return field.hidden ? undefined : byId<HTMLInputElement>("sign-in-code").value.trim() || undefined;
};

export function askForSignInCode(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.code !== "totp_required") return false;
  const field = byId("sign-in-code-field");
  const firstTime = field.hidden;
  field.hidden = false;
  const form = byId<HTMLFormElement>("sign-in-form");
  showErrors(form, { code: firstTime ? "Enter the code from your authenticator app." : "Enter a code." });
  return true;
}

const isSessionEnd = (error: unknown) =>
  error instanceof ApiError && error.status === 401 && error.code !== "invalid_credentials";

export function wireTotp({ handleError, updated }: Deps): void {
  byId<HTMLButtonElement>("totp-start").addEventListener("click", async (event) => {
    const token = session.get();
    if (!token) return;
    try {
      const started = await busy(event.currentTarget as HTMLButtonElement, "Preparing…", () => api.startTotp(token));
      if (!started) return; // a second click while the first was busy
      const { secret, otpauthUri } = started;
      byId("totp-qr").innerHTML = renderSVG(otpauthUri, { border: 2 });
      byId("totp-secret").textContent = secret.replace(/(.{4})/g, "$1 ").trim();
      byId("totp-setup").hidden = false;
      byId("totp-start-row").hidden = true;
      byId("totp-code").focus();
    } catch (error) {
      handleError(error);
    }
  });

  wireCodeForm("totp-confirm-form", async (token, code) => {
    const { recoveryCodes } = await api.confirmTotp(token, code);
    byId("totp-setup").hidden = true;
    byId("totp-state").textContent = STATE.on;
    byId("totp-recovery-list").replaceChildren(
      ...recoveryCodes.map((c) => Object.assign(document.createElement("li"), { textContent: c })),
    );
    byId("totp-recovery").hidden = false;
    byId("totp-recovery-done").focus();
    updated(true);
  });
  byId("totp-recovery-done").addEventListener("click", () => {
    byId("totp-recovery").hidden = true;
    byId("totp-recovery-list").replaceChildren();
    renderTotp({ totpEnabled: true });
    byId("totp-title").focus();
    announce("One-time codes are on.");
  });

  wireCodeForm("totp-off-form", async (token, code) => {
    await api.disableTotp(token, code);
    renderTotp({ totpEnabled: false });
    updated(false);
    byId("totp-title").focus();
    announce("One-time codes are off.");
  });

  function wireCodeForm(id: string, submit: (token: string, code: string) => Promise<void>): void {
    const form = byId<HTMLFormElement>(id);
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors(form);
      const code = (form.elements.namedItem("code") as HTMLInputElement).value.trim();
      if (!code) return showErrors(form, { code: "Enter the code from your authenticator app." });
      const token = session.get();
      if (!token) return;
      try {
        await busy(button, "Checking…", () => submit(token, code));
        form.reset();
      } catch (error) {
        if (isSessionEnd(error)) handleError(error);
        else showApiError(form, error, LABELS);
      }
    });
  }
}
