import { ApiError, api } from "./api";
import { busy, byId } from "./dom";
import { clearErrors, showApiError, showErrors } from "./forms";

/**
 * The pages mailed links open: /verify?token=… (confirms an address) and /reset (asks for a reset link, or with
 * ?token=… sets the new password). The token leaves the address bar at once, so it is not kept in history.
 */

const token = new URLSearchParams(window.location.search).get("token");
if (token) window.history.replaceState(null, "", window.location.pathname);

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.detail : "Something went wrong. Reload the page and try again.";

async function verifyPage(): Promise<void> {
  const result = byId("verify-result");
  if (!token) {
    result.textContent = "This address has no link token. Open the link from the mail again.";
    return;
  }
  try {
    await api.verify(token);
    result.textContent = "Your email address is verified. Thank you.";
  } catch (error) {
    result.className = "alert alert--error";
    result.textContent = messageOf(error);
  }
  byId("title").focus();
}

function resetPage(): void {
  const result = byId("reset-result");
  const say = (text: string, kind: "info" | "error" = "info") => {
    result.className = `alert alert--${kind}`;
    result.textContent = text;
    result.hidden = false;
  };
  const form = byId<HTMLFormElement>(token ? "reset-confirm-form" : "reset-request-form");
  form.hidden = false;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    result.hidden = true;
    const value = form.querySelector("input")?.value ?? "";
    try {
      if (!token) {
        const email = value.trim();
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
          return showErrors(form, { email: "Enter an email address, like name@example.com." });
        await busy(button, "Sending…", () => api.requestReset(email));
        say(`If an account uses ${email}, a link is on its way. It works once, for 30 minutes.`);
      } else {
        if (value.length < 10) return showErrors(form, { newPassword: "Password must be at least 10 characters." });
        await busy(button, "Saving…", () => api.confirmReset(token, value));
        form.hidden = true;
        say("Your password is set. Sign in with it on your account page.");
      }
      form.reset();
    } catch (error) {
      if (error instanceof ApiError && error.code === "invalid_token") {
        form.hidden = true;
        say(`${error.detail} `, "error");
        result.append(
          Object.assign(document.createElement("a"), { href: "/reset", textContent: "Ask for a new link" }),
        );
      } else showApiError(form, error, { email: "Email", newPassword: "New password" });
    }
  });
}

if (window.location.pathname.startsWith("/verify")) void verifyPage();
else resetPage();
