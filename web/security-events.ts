import { api, type SecurityEvent } from "./api";
import { announce, byId, h, timeElement } from "./dom";
import { session } from "./session";
import { describeUserAgent } from "../src/domain/user-agent";

/** The Security section's "Recent security events" list and its "Sign out everywhere" button. */

const fact = (event: SecurityEvent, name: string) => (typeof event[name] === "string" ? (event[name] as string) : "");

/** What each event says, in words; an unknown type (a newer server) is shown by its name. */
function describe(event: SecurityEvent): string {
  switch (event.type) {
    case "signed_up":
      return "Account created and signed in";
    case "signed_in":
      return fact(event, "method") === "passkey" ? "Signed in with a passkey" : "Signed in with the password";
    case "password_changed":
      return "Password changed";
    case "password_reset":
      return "Password reset by email link";
    case "email_change_requested":
      return `Address change to ${fact(event, "address")} requested`;
    case "email_changed":
      return `Address changed to ${fact(event, "address")}`;
    case "totp_enabled":
      return "One-time codes turned on";
    case "totp_disabled":
      return "One-time codes turned off";
    case "passkey_added":
      return "Passkey added";
    case "passkey_removed":
      return "Passkey removed";
    case "session_ended":
      return "A session was ended";
    case "signed_out_everywhere":
      return "Signed out everywhere";
    case "oauth_connected":
      return `App connected: ${fact(event, "app")}`;
    default:
      return event.type;
  }
}

export function renderSecurityEvents(events: SecurityEvent[]): void {
  const list = byId("security-event-list");
  if (events.length === 0) {
    list.replaceChildren(h("li", { class: "hint" }, "Nothing yet."));
    return;
  }
  list.replaceChildren(
    ...events.map((event) =>
      h(
        "li",
        { class: "security-event", "data-type": event.type },
        h("span", {}, describe(event)),
        event.device
          ? h("span", { class: "hint-inline", title: event.device }, ` · ${describeUserAgent(event.device)}`)
          : null,
        " · ",
        timeElement(event.at),
      ),
    ),
  );
}

export async function refreshSecurityEvents(handleError: (error: unknown) => void): Promise<void> {
  const token = session.get();
  if (!token) return;
  try {
    renderSecurityEvents(await api.listSecurityEvents(token));
  } catch (error) {
    handleError(error);
  }
}

/** Ends every session, this one too, then shows the signed-out page. */
export function wireSignOutEverywhere(signedOut: (message: string) => void, handleError: (error: unknown) => void) {
  byId<HTMLButtonElement>("sign-out-everywhere").addEventListener("click", async () => {
    const token = session.get();
    if (!token) return;
    try {
      await api.endAllSessions(token);
    } catch (error) {
      return handleError(error);
    }
    session.clear();
    signedOut("You are signed out everywhere.");
    announce("Every session has ended.");
  });
}
