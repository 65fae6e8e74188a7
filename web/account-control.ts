import { type Account, type ApiKey, api, type Session } from "./api";
import { refreshConnections } from "./connections";
import { announce, busy, byId } from "./dom";
import { clearErrors, showErrors } from "./forms";
import { passkeyConfirmation } from "./passkeys";
import { describeLosses, openDeleteDialog, renderSessions } from "./security";
import { describeUserAgent } from "../src/domain/user-agent";
import { wireImport } from "./import";
import { session } from "./session";

/** The Security (password, sessions) and Your data (export, import, deletion) sections. */

export interface ControlDeps {
  /** A failed request: a 401 that is not a wrong password signs the tab out; the rest go to `form`. */
  handleError: (error: unknown, form?: HTMLFormElement) => void;
  /** After the account is gone. */
  signedOut: (message: string) => void;
  account: () => Account | null;
  keys: () => ApiKey[];
}

const LABELS = { currentPassword: "Current password", newPassword: "New password" };

export async function refreshSessions(deps: ControlDeps): Promise<void> {
  const token = session.get();
  if (!token) return;
  try {
    renderSessions(await api.listSessions(token), (s) => void endSession(deps, s));
  } catch (error) {
    deps.handleError(error);
  }
}

async function endSession(deps: ControlDeps, target: Session): Promise<void> {
  const token = session.get();
  if (!token) return;
  try {
    await api.endSession(token, target.id);
    await refreshSessions(deps);
    byId("sessions-title").focus();
    announce(`Session on ${describeUserAgent(target.userAgent)} ended. It is signed out now.`);
  } catch (error) {
    deps.handleError(error);
  }
}

function wirePassword(deps: ControlDeps): void {
  const form = byId<HTMLFormElement>("password-form");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const status = byId("password-status");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    status.hidden = true;
    const currentPassword = byId<HTMLInputElement>("current-password").value;
    const newPassword = byId<HTMLInputElement>("new-password").value;
    // "Confirm with a passkey instead" submits the same form: a passkey assertion replaces the current password.
    const withPasskey = event.submitter?.id === "password-passkey";
    const problems: Record<string, string> = {};
    if (!currentPassword && !withPasskey) problems.currentPassword = "Enter your current password.";
    if (newPassword.length < 10) problems.newPassword = "New password must be at least 10 characters.";
    if (Object.keys(problems).length) return showErrors(form, problems, "Please correct the marked fields.");
    const token = session.get();
    if (!token) return deps.signedOut("Please sign in again.");
    try {
      await busy(button, "Changing…", async () => {
        const proof = withPasskey ? { passkey: await passkeyConfirmation(token) } : { currentPassword };
        await api.changePassword(token, { ...proof, newPassword });
        form.reset();
        status.textContent =
          "Password changed. Every other browser is signed out and every connected app is disconnected; your API keys keep working.";
        status.hidden = false;
        await Promise.all([refreshSessions(deps), refreshConnections((error) => deps.handleError(error))]);
      });
    } catch (error) {
      deps.handleError(error, form);
    }
  });
}

function wireExport(deps: ControlDeps): void {
  const button = byId<HTMLButtonElement>("export-button");
  button.addEventListener("click", async () => {
    const token = session.get();
    if (!token) return deps.signedOut("Please sign in again.");
    try {
      await busy(button, "Preparing…", async () => {
        const { blob, filename } = await api.exportAccount(token);
        // The export needs the session header, so it cannot be a plain link: save the fetched file.
        const url = URL.createObjectURL(blob);
        const link = Object.assign(document.createElement("a"), { href: url, download: filename });
        document.body.append(link);
        link.click();
        link.remove();
        window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
        announce(`Your data is downloading as ${filename}.`);
      });
    } catch (error) {
      deps.handleError(error);
    }
  });
}

function wireDelete(deps: ControlDeps): void {
  const opener = byId<HTMLButtonElement>("delete-account");
  opener.addEventListener("click", () => {
    const account = deps.account();
    if (!account) return;
    const plan = account.membership.active ? "Max" : "Free";
    describeLosses(account.email, plan, deps.keys().filter((k) => k.revokedAt === null).length);
    clearErrors(byId<HTMLFormElement>("delete-form"));
    openDeleteDialog(
      async (password, form, withPasskey) => {
        clearErrors(form);
        if (!password && !withPasskey) {
          showErrors(form, { password: "Enter your password to confirm." });
          return false;
        }
        const token = session.get();
        if (!token) return true;
        try {
          const button = byId<HTMLButtonElement>(withPasskey ? "delete-passkey" : "delete-confirm");
          await busy(button, "Deleting…", async () =>
            api.deleteAccount(token, withPasskey ? { passkey: await passkeyConfirmation(token) } : { password }),
          );
        } catch (error) {
          deps.handleError(error, form);
          return false;
        }
        return true;
      },
      (deleted) => {
        if (!deleted) return opener.focus();
        // After the dialog has closed, so its focus return does not pull focus into the hidden section.
        session.clear();
        deps.signedOut("Your account has been deleted, with everything in it.");
      },
    );
  });
}

export function wireAccountControl(deps: ControlDeps): void {
  wirePassword(deps);
  wireExport(deps);
  wireImport(deps.handleError, () => deps.signedOut("Please sign in again."));
  wireDelete(deps);
}

export { LABELS as CONTROL_LABELS };
