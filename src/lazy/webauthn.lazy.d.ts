// src/lazy/webauthn.lazy.js: `@simplewebauthn/server`, for the passkey routes only (src/control/accounts/passkeys.ts).
export {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
