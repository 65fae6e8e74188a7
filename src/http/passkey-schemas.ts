import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import * as z from "zod";
import { GivenPassword } from "./account-schemas";

/**
 * The JSON that `@simplewebauthn/browser` (startRegistration, startAuthentication) hands back, as the routes accept
 * it: the shapes are checked here, the signatures and origins by the library (control/accounts/passkeys.ts).
 * Credential ids are at most 1023 bytes (WebAuthn §5.1), 1364 base64url characters.
 */
const B64url = z.string().regex(/^[A-Za-z0-9_-]*$/, { error: "must be base64url" });
const CredentialId = B64url.min(1).max(1364);
const Blob = B64url.max(16_384);
const common = {
  id: CredentialId,
  rawId: CredentialId,
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.looseObject({}).default({}),
};

export const PasskeyRegistration = z
  .object({
    ...common,
    response: z.looseObject({
      clientDataJSON: Blob,
      attestationObject: Blob,
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
  })
  .openapi("PasskeyRegistration", {
    description:
      "What `navigator.credentials.create()` returned, as JSON (`@simplewebauthn/browser`'s startRegistration).",
  }) as unknown as z.ZodType<RegistrationResponseJSON>;

export const PasskeyAssertion = z
  .object({
    ...common,
    response: z.looseObject({
      clientDataJSON: Blob,
      authenticatorData: Blob,
      signature: Blob,
      userHandle: B64url.max(1024).optional(),
    }),
  })
  .openapi("PasskeyAssertion", {
    description:
      "What `navigator.credentials.get()` returned, as JSON (`@simplewebauthn/browser`'s startAuthentication).",
  }) as unknown as z.ZodType<AuthenticationResponseJSON>;

export const PasskeyName = z
  .string()
  .overwrite((s) => s.toWellFormed())
  .trim()
  .min(1, { error: "must not be empty" })
  .max(100)
  .openapi({ description: "A name to tell passkeys apart, e.g. the device: “Laptop”, “Phone”." });

export const PasskeySummary = z
  .object({
    id: z.string().openapi({ description: "The credential id (base64url)." }),
    name: z.string(),
    createdAt: z.string().openapi({ description: "When it was added (RFC 3339 UTC)." }),
    lastUsedAt: z.string().nullable().openapi({ description: "Its last sign-in or confirmation." }),
  })
  .openapi("Passkey");

/**
 * "Confirm it's you" (transport/sign-in.ts reauthenticate): the password in `passwordField`, or `passkey`, an
 * assertion answering POST /account/passkeys/confirmation-options. Exactly one.
 */
export const confirmationFields = <F extends string>(passwordField: F, description: string) =>
  ({
    [passwordField]: GivenPassword.optional().openapi({ description }),
    passkey: PasskeyAssertion.optional().openapi({
      description:
        "Instead of the password: an assertion of one of the account's passkeys, answering POST /account/passkeys/confirmation-options.",
    }),
  }) as { [K in F]: z.ZodOptional<typeof GivenPassword> } & { passkey: z.ZodOptional<typeof PasskeyAssertion> };

export const exactlyOneProof = (passwordField: string) => (input: Record<string, unknown>, ctx: z.RefinementCtx) => {
  if ((input[passwordField] === undefined) === (input.passkey === undefined)) {
    ctx.addIssue({ code: "custom", path: [passwordField], message: "send the password or `passkey`, exactly one" });
  }
};
