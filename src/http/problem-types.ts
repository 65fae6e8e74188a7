import type { ErrorCode } from "../domain/errors";

/**
 * What each problem type means and what to do about it: the page its `type` URI leads to (RFC 9457 §3.1.1),
 * served by problems.ts. Typed by ErrorCode, so a new code does not compile until it has its page.
 */
export const problemTypes: Record<ErrorCode, { meaning: string; action: string }> = {
  validation_failed: {
    meaning:
      "The request's input is invalid: a field of the body, a path or query parameter, or the body itself (its media type or JSON syntax). `errors` names each field by `path`, with a `message`.",
    action:
      "Correct what `errors` names and send the request again; the formats are in the API reference. Sent unchanged, it fails the same way.",
  },
  unauthorized: {
    meaning:
      "The request has no valid credential: the bearer API key (or session, OAuth access token, admin token) is missing, malformed, unknown, revoked or expired.",
    action:
      "Send `Authorization: Bearer todo_live_…` with an active key from the account page. An MCP host connected over OAuth signs in again: the `WWW-Authenticate` header names the metadata that starts it.",
  },
  invalid_credentials: {
    meaning:
      "The email and password do not match an account: at sign-in, or when a password is asked again (changing the password, erasing the account). For a passkey: the assertion could not be verified (unknown or removed passkey, used or expired challenge, another origin).",
    action:
      "Check both and try again. Attempts count against the sign-in limits (5 a minute per email), so a script should not loop on it.",
  },
  max_required: {
    meaning: "The key is valid, but its account has no active Max membership, which tasks and lists need.",
    action:
      "The account needs an active Max membership: `upgradeUrl` (the account page's billing section) says where to get it, and calendars work without it. Retrying does not help until then.",
  },
  insufficient_scope: {
    meaning:
      "The app is connected over OAuth with `tasks:read` only, and this MCP tool writes, which needs `tasks:write`.",
    action: "Connect the app again and approve `tasks:write`, or use the read-only tools.",
  },
  forbidden_origin: {
    meaning:
      "A browser sent this request from a site this route does not accept. Task, account and MCP routes accept this service's own origin, localhost, and the hostnames the operator lists in `ALLOWED_ORIGINS`.",
    action:
      "Call from a server or a tool (no `Origin` header), or ask the operator to add your site's hostname to `ALLOWED_ORIGINS`.",
  },
  task_not_found: {
    meaning:
      "No task with this id in your account: it never existed, it was deleted, or it belongs to another account.",
    action: "List the tasks (or sync with `since`) for the current ids.",
  },
  list_not_found: {
    meaning:
      "No list with this id in your account: it never existed, it was deleted, or it belongs to another account.",
    action: "`GET /api/v1/lists` has the current lists and their ids.",
  },
  label_not_found: {
    meaning:
      "No label with this id in your account: it never existed, it was deleted, or it belongs to another account.",
    action: "`GET /api/v1/labels` has the current labels and their ids.",
  },
  pack_not_found: {
    meaning: "No holiday calendar pack with this id.",
    action: "`GET /api/v1/calendars` lists the packs (search them with `q`).",
  },
  not_found: {
    meaning:
      "Nothing answers at this URL: a mistyped path, or a feature this deployment has switched off (such as the admin routes without an admin token).",
    action: "Check the path and method against the API root, `GET /api/v1/`, and the OpenAPI document.",
  },
  method_not_allowed: {
    meaning: "The route exists, but not with this HTTP method.",
    action: "Use a method the API reference lists for this path.",
  },
  email_taken: {
    meaning: "An account with this email already exists.",
    action: "Sign in instead, or sign up with another address.",
  },
  webhook_not_found: {
    meaning:
      "No webhook with this id in your account: it never existed, it was deleted, or it belongs to another account.",
    action: "`GET /api/v1/webhooks` has the current webhooks and their ids.",
  },
  push_subscription_not_found: {
    meaning: "No device with this id gets notifications for the account: it was removed, or it was never stored.",
    action: "`GET /account/push-subscriptions` lists the devices and their ids.",
  },
  webhook_limit_reached: {
    meaning: "The account already has 10 webhooks, the most it may have.",
    action: "Delete a webhook you no longer use (`DELETE /api/v1/webhooks/{id}`), then create the new one.",
  },
  key_limit_reached: {
    meaning: "The account already has 10 active API keys, the most it may have.",
    action: "Revoke a key you no longer use on the account page, then create the new one.",
  },
  passkey_limit_reached: {
    meaning: "The account already has 20 passkeys, the most it may have.",
    action:
      "Remove a passkey you no longer use on the account page (`DELETE /account/passkeys/{id}`), then add the new one.",
  },
  list_exists: {
    meaning: "The account already has a list with this name (names are compared ignoring case).",
    action: "Use that list (its id is in `GET /api/v1/lists`), or choose another name.",
  },
  label_exists: {
    meaning: "The account already has a label with this name (names are compared ignoring case).",
    action: "Use that label, rename or delete it first (`GET /api/v1/labels` has its id), or choose another name.",
  },
  sync_expired: {
    meaning:
      "`since` is older than the 90 days that deletions are remembered, so the deletions since then cannot be reported.",
    action: "Drop the local copy and list again without `since`; then sync from that answer's `meta.serverTime`.",
  },
  precondition_failed: {
    meaning: "`If-Match` names a version that is no longer current: the item changed after you read it.",
    action: "Read it again for its current `ETag`, apply your change to what it is now, and send it with that `ETag`.",
  },
  payload_too_large: {
    meaning: "The body is larger than this route accepts.",
    action: "Send less: a title has at most 500 characters and notes at most 20,000.",
  },
  idempotency_key_reused: {
    meaning: "This `Idempotency-Key` was used in the last 24 hours with a different body.",
    action: "Use a new key for a new request. Sending the first body again with this key returns the first result.",
  },
  rate_limited: {
    meaning: "Too many requests in the current minute for this key, client IP, email or account.",
    action:
      "Wait the seconds in `Retry-After`, then retry. Successful responses carry `RateLimit` and `RateLimit-Policy`, which show what is left.",
  },
  invalid_token: {
    meaning:
      "The link's token (a verification, address-change or password-reset link) is used, expired, or not one this service sent. Which of these is never said.",
    action:
      'Ask for a new link: "Send again" on the account page, or POST /auth/password-reset. Verification and address links work for 24 hours, reset links for 30 minutes, each once.',
  },
  email_unverified: {
    meaning:
      "This needs a verified email address (billing, and mail the service sends on its own), and the account's address is not verified yet.",
    action:
      'Open the link in the mail sent at sign-up, or send a new one: POST /auth/verify/resend (the account page\'s "Send again").',
  },
  totp_required: {
    meaning:
      "The email and password are right, and the account asks for a one-time code as well (two-step sign-in is on).",
    action:
      "Send the request again with `code`: the 6 digits your authenticator app shows now, or one of the recovery codes (each works once).",
  },
  totp_enabled: {
    meaning: "One-time codes are already on for this account.",
    action:
      "To move to a new authenticator app, turn codes off first (DELETE /account/totp with a code), then on again.",
  },
  mail_off: {
    meaning:
      "This deployment sends no email: its operator has not configured Cloudflare Email Service (docs/deploy.md). Verification and password reset by mail are off; nothing else is.",
    action: "Ask the service's contact (`GET /api/v1/`) for help with the account.",
  },
  push_off: {
    meaning:
      "This deployment sends no browser notifications: its operator has not set the VAPID keys (docs/deploy.md). Reminders still reach webhooks, the stream and, where mail is on, email.",
    action: "Use reminders by email or a webhook instead, or ask the service's contact (`GET /api/v1/`).",
  },
  internal: {
    meaning:
      "Something failed on our side that a retry is unlikely to change (a bug, or a value beyond a database limit). Nothing was half-written.",
    action:
      "If it happens again, tell the service's contact (`GET /api/v1/`) the time and the request, never your key.",
  },
  unavailable: {
    meaning: "The database is briefly unavailable. Nothing was half-written.",
    action:
      "Retry after the seconds in `Retry-After`. With an `Idempotency-Key`, retrying a task creation is safe: it is created once.",
  },
};
