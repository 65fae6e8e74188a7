import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { ApiError, api, type Passkey } from "./api";
import { announce, busy, byId, confirmInDialog, h, timeElement } from "./dom";
import { clearErrors, showApiError, showErrors } from "./forms";
import { session } from "./session";

/**
 * Passkeys on the account page (`@simplewebauthn/browser`): add, name, rename and remove them in Security; sign in
 * with one (the button, and the browser's autofill in the email field: conditional UI); and confirm it's you with
 * one instead of the password (password change, deletion: `passkeyConfirmation`).
 */
type HandleError = (error: unknown, form?: HTMLFormElement) => void;
export type Json = Record<string, unknown>;
const LABELS = { name: "Name", response: "The passkey" };

/** The browser refused or the person cancelled: the ceremony's own errors, not the server's. */
const NOT_USED = "No passkey was used. Try again, or use your password.";
export const ceremonyError = (error: unknown) =>
  error instanceof ApiError ? error : new ApiError(0, "passkey_cancelled", NOT_USED);

function passkeyItem(passkey: Passkey, onRename: (p: Passkey) => void, onRemove: (p: Passkey) => void) {
  const action = (label: string, kind: string, run: (p: Passkey) => void) => {
    const button = h(
      "button",
      { type: "button", class: `button ${kind}` },
      label,
      h("span", { class: "visually-hidden" }, ` passkey ${passkey.name}`),
    );
    button.addEventListener("click", () => run(passkey));
    return button;
  };
  return h(
    "li",
    { class: "key", "data-passkey-id": passkey.id },
    h("div", { class: "key__head" }, h("h4", { class: "key__name" }, passkey.name)),
    h(
      "dl",
      { class: "key__meta" },
      h("div", {}, h("dt", {}, "Added"), h("dd", {}, timeElement(passkey.createdAt))),
      h(
        "div",
        {},
        h("dt", {}, "Last used"),
        h("dd", {}, passkey.lastUsedAt ? timeElement(passkey.lastUsedAt) : "Never"),
      ),
    ),
    h(
      "div",
      { class: "key__actions" },
      action("Rename", "button--secondary", onRename),
      action("Remove", "button--danger-outline", onRemove),
    ),
  );
}

function render(list: Passkey[], handleError: HandleError) {
  byId("passkey-list").replaceChildren(
    ...list.map((p) =>
      passkeyItem(
        p,
        (target) => rename(target, handleError),
        (target) => remove(target, handleError),
      ),
    ),
  );
  byId("passkey-list").hidden = list.length === 0;
  byId("passkeys-count").textContent = list.length === 1 ? "1 passkey" : `${list.length} passkeys`;
  // "Confirm with a passkey" appears where a password is asked again, once there is a passkey to confirm with.
  for (const button of document.querySelectorAll<HTMLElement>(".passkey-confirm"))
    button.hidden = list.length === 0 || !browserSupportsWebAuthn();
}

export async function refreshPasskeys(handleError: HandleError): Promise<void> {
  const token = session.get();
  if (!token) return;
  try {
    render(await api.listPasskeys(token), handleError);
  } catch (error) {
    handleError(error);
  }
}

/** An assertion of one of the account's passkeys, for `passkey` where the password would be asked again. */
export async function passkeyConfirmation(token: string): Promise<Json> {
  const options = await api.passkeyConfirmationOptions(token);
  try {
    return (await startAuthentication({
      optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    })) as unknown as Json;
  } catch (error) {
    throw ceremonyError(error);
  }
}

function rename(passkey: Passkey, handleError: HandleError) {
  const dialog = byId<HTMLDialogElement>("passkey-rename-dialog");
  const form = byId<HTMLFormElement>("passkey-rename-form");
  const input = byId<HTMLInputElement>("passkey-rename-name");
  const cancel = byId("passkey-rename-cancel");
  const onCancel = () => dialog.close();
  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    clearErrors(form);
    const name = input.value.trim();
    if (!name) return showErrors(form, { name: "Give the passkey a name." });
    const token = session.get();
    if (!token) return dialog.close();
    try {
      await api.renamePasskey(token, passkey.id, name);
      dialog.close("renamed");
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        dialog.close();
        return handleError(error);
      }
      showApiError(form, error, LABELS);
    }
  };
  cancel.addEventListener("click", onCancel);
  form.addEventListener("submit", onSubmit);
  dialog.addEventListener(
    "close",
    async () => {
      cancel.removeEventListener("click", onCancel);
      form.removeEventListener("submit", onSubmit);
      clearErrors(form);
      if (dialog.returnValue !== "renamed") return;
      await refreshPasskeys(handleError);
      byId("passkeys-title").focus();
      announce("Passkey renamed.");
    },
    { once: true },
  );
  dialog.returnValue = "";
  input.value = passkey.name;
  dialog.showModal();
  input.select();
}

async function remove(passkey: Passkey, handleError: HandleError) {
  byId("passkey-remove-name").textContent = passkey.name;
  const removing = await confirmInDialog("passkey-remove-dialog", "passkey-remove-confirm", "passkey-remove-cancel");
  const token = session.get();
  if (!removing || !token) return;
  try {
    await api.removePasskey(token, passkey.id);
    await refreshPasskeys(handleError);
    byId("passkeys-title").focus();
    announce(`Passkey “${passkey.name}” removed. It no longer signs you in.`);
  } catch (error) {
    handleError(error);
  }
}

export function wirePasskeys(handleError: HandleError): void {
  const form = byId<HTMLFormElement>("passkey-add-form");
  const supported = browserSupportsWebAuthn();
  form.hidden = !supported;
  byId("passkeys-unsupported").hidden = supported;
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    const name = byId<HTMLInputElement>("passkey-name").value.trim();
    if (!name) return showErrors(form, { name: "Give the passkey a name, for example the device it is on." });
    const token = session.get();
    if (!token) return;
    try {
      await busy(button, "Waiting for your device…", async () => {
        const options = await api.passkeyRegistrationOptions(token);
        let response: Json;
        try {
          const optionsJSON = options as unknown as PublicKeyCredentialCreationOptionsJSON;
          response = (await startRegistration({ optionsJSON })) as unknown as Json;
        } catch (error) {
          throw ceremonyError(error);
        }
        const added = await api.addPasskey(token, { name, response });
        form.reset();
        await refreshPasskeys(handleError);
        announce(`Passkey “${added.name}” added. You can sign in with it now.`);
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) handleError(error);
      else showApiError(form, error, LABELS);
    }
  });
}
