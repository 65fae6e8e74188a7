import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  WebAuthnAbortService,
} from "@simplewebauthn/browser";
import { type Account, ApiError, api } from "./api";
import { busy, byId } from "./dom";
import { clearErrors, showApiError } from "./forms";
import { ceremonyError, type Json } from "./passkeys";

/**
 * Sign-in with a passkey: the button, and the email field's autofill where the browser offers passkeys there
 * (conditional UI: `autocomplete="username webauthn"`). `signedIn` enters the account as a password sign-in does.
 */
export function wirePasskeySignIn(signedIn: (result: { token: string; account: Account }) => Promise<void>) {
  if (!browserSupportsWebAuthn()) return;
  const form = byId<HTMLFormElement>("sign-in-form");
  const button = byId<HTMLButtonElement>("passkey-sign-in");
  byId("passkey-sign-in-row").hidden = false;
  const signIn = async (autofill: boolean) => {
    const options = await api.passkeySignInOptions();
    let response: Json;
    try {
      const optionsJSON = options as unknown as PublicKeyCredentialRequestOptionsJSON;
      response = (await startAuthentication({ optionsJSON, useBrowserAutofill: autofill })) as unknown as Json;
    } catch (error) {
      throw ceremonyError(error);
    }
    const result = await api.logInWithPasskey(response);
    form.reset();
    await signedIn(result);
  };
  button.addEventListener("click", async () => {
    clearErrors(form);
    try {
      // Starting a ceremony cancels the autofill one (the library's abort service); it is armed again after.
      await busy(button, "Waiting for your passkey…", () => signIn(false));
    } catch (error) {
      showApiError(form, error);
      void autofill.arm();
    }
  });
  autofill.arm = async () => {
    if (!(await browserSupportsWebAuthnAutofill())) return;
    try {
      await signIn(true);
    } catch (error) {
      // A cancelled autofill (a ceremony started by the button, or the page signed in) says nothing.
      if (error instanceof ApiError && error.code !== "passkey_cancelled") showApiError(form, error);
    }
  };
}

const autofill: { arm: () => Promise<void> } = { arm: async () => {} };

/** Offers passkeys in the email field's autofill while the sign-in form shows; a no-op without support. */
export const armPasskeyAutofill = () => autofill.arm();

/** The sign-in form is gone (signed in): its pending autofill ceremony ends. */
export const endPasskeyAutofill = () => WebAuthnAbortService.cancelCeremony();
