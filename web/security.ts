import type { Session } from "./api";
import { byId, h, timeElement } from "./dom";
import { describeUserAgent } from "../src/domain/user-agent";

/** Rendering of the session list and the delete-account confirmation. */

function meta(term: string, value: Node | string): HTMLDivElement {
  return h("div", {}, h("dt", {}, term), h("dd", {}, value));
}

function sessionItem(session: Session, onEnd: (session: Session) => void): HTMLLIElement {
  const name = describeUserAgent(session.userAgent);
  const item = h(
    "li",
    { class: "key", "data-session-id": session.id },
    h(
      "div",
      { class: "key__head" },
      // The whole User-Agent stays one hover away, for the rare person who needs to tell two alike apart.
      h("h4", { class: "key__name", title: session.userAgent ?? "" }, name),
      session.current ? h("span", { class: "badge badge--max" }, "This device") : null,
    ),
    h(
      "dl",
      { class: "key__meta" },
      meta("Signed in", timeElement(session.createdAt)),
      meta("Last active", session.lastUsedAt ? timeElement(session.lastUsedAt) : "Not yet"),
    ),
  );
  // This device ends its session with Sign out; the others get a button.
  if (!session.current) {
    const button = h(
      "button",
      { type: "button", class: "button button--danger-outline" },
      "End session",
      h("span", { class: "visually-hidden" }, ` on ${name}`),
    );
    button.addEventListener("click", () => onEnd(session));
    item.append(button);
  }
  return item;
}

export function renderSessions(sessions: Session[], onEnd: (session: Session) => void): void {
  byId("session-list").replaceChildren(...sessions.map((s) => sessionItem(s, onEnd)));
  byId("sessions-count").textContent = sessions.length === 1 ? "1 session" : `${sessions.length} sessions`;
}

/** Fills in what the deletion will take, so the dialog names the losses. */
export function describeLosses(email: string, plan: string, activeKeys: number): void {
  byId("delete-email").textContent = email;
  byId("delete-plan").textContent = plan;
  // With no key there is nothing to lose there: the line goes, rather than saying "your 0 active API keys".
  byId("delete-keys-item").hidden = activeKeys === 0;
  byId("delete-keys").textContent = activeKeys === 1 ? "your 1 active API key" : `your ${activeKeys} active API keys`;
}

/**
 * The modal confirmation: focus starts on the password (what the person must do next), Escape and
 * Cancel close it. `submit` gets the password and resolves true once the account is gone, or false
 * to keep the dialog open with its error shown.
 */
export function openDeleteDialog(
  submit: (password: string, form: HTMLFormElement, withPasskey: boolean) => Promise<boolean>,
  onClose: (deleted: boolean) => void,
): void {
  const dialog = byId<HTMLDialogElement>("delete-dialog");
  const form = byId<HTMLFormElement>("delete-form");
  const cancel = byId<HTMLButtonElement>("delete-cancel");
  const onCancel = () => dialog.close("cancel");
  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    const withPasskey = event.submitter?.id === "delete-passkey";
    if (await submit(byId<HTMLInputElement>("delete-password").value, form, withPasskey)) dialog.close("deleted");
  };
  cancel.addEventListener("click", onCancel);
  form.addEventListener("submit", onSubmit);
  dialog.addEventListener(
    "close",
    () => {
      cancel.removeEventListener("click", onCancel);
      form.removeEventListener("submit", onSubmit);
      form.reset();
      onClose(dialog.returnValue === "deleted");
    },
    { once: true },
  );
  dialog.returnValue = "";
  dialog.showModal();
  byId("delete-password").focus();
}
