import { type Account, ApiError, api } from "./api";
import { busy, byId } from "./dom";
import { clearErrors, showApiError, showErrors } from "./forms";
import { session } from "./session";

/** The account page's mail parts: "verify your address" until it is done, and the change of address. */

/** An unverified account this old sees the prompt before anything else on the page. */
const PROMPT_FIRST_DAYS = 7;

/** Shows or hides the banner; returns true when it must come first (focus goes to it). */
export function renderVerification(account: Account): boolean {
  const banner = byId("verify-banner");
  banner.hidden = account.emailVerification !== "pending";
  byId("verify-email").textContent = account.email;
  byId("verify-status").textContent = "";
  const ageDays = (Date.now() - Date.parse(account.createdAt)) / 86_400_000;
  return !banner.hidden && ageDays >= PROMPT_FIRST_DAYS;
}

export function wireEmail(handleError: (error: unknown, form?: HTMLFormElement) => void): void {
  const resend = byId<HTMLButtonElement>("verify-resend");
  resend.addEventListener("click", async () => {
    const token = session.get();
    if (!token) return;
    const status = byId("verify-status");
    try {
      await busy(resend, "Sending…", () => api.resendVerification(token));
      status.textContent = "Sent. The new link works for 24 hours; earlier links no longer do.";
    } catch (error) {
      if (error instanceof ApiError && error.status !== 401) status.textContent = error.detail;
      else handleError(error);
    }
  });

  const form = byId<HTMLFormElement>("email-form");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const done = byId("email-status");
    done.hidden = true;
    const email = (form.elements.namedItem("email") as HTMLInputElement).value.trim();
    const password = (form.elements.namedItem("password") as HTMLInputElement).value;
    const problems: Record<string, string> = {};
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) problems.email = "Enter an email address, like name@example.com.";
    if (!password) problems.password = "Enter your current password.";
    if (Object.keys(problems).length) return showErrors(form, problems, "Please correct the marked fields.");
    const token = session.get();
    if (!token) return;
    try {
      await busy(button, "Sending…", () => api.changeEmail(token, { email, password }));
      form.reset();
      done.textContent = `We sent a link to ${email}. Your address changes when you open it (within 24 hours).`;
      done.hidden = false;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401 && error.code !== "invalid_credentials") handleError(error);
      else showApiError(form, error, { email: "New email address", password: "Current password" });
    }
  });
}
