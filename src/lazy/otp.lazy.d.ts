// src/lazy/otp.lazy.js: `otpauth`, for the one-time-code routes only (src/control/accounts/totp.ts).
export { Secret, TOTP } from "otpauth";
