import * as z from "zod";
import { DATA_LOCATIONS } from "../domain/data-location";

/** Pieces shared by the session routes' files (account.ts, account-security.ts, account-data.ts). */

export const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });
export const body = <T extends z.ZodType>(schema: T) => ({ body: { required: true, ...json(schema) } });
export const session = [{ sessionAuth: [] }];

/** The password rule of sign-up, also for a new password. */
export const NewPassword = z.string().min(10, { error: "must be at least 10 characters" }).max(1024);
/** A password being checked: any length a sign-up could have set. */
export const GivenPassword = z.string().min(1, { error: "must not be empty" }).max(1024);

/** Where the account's data lives: chosen at sign-up, and only then. */
export const DataLocationField = z.enum(DATA_LOCATIONS).openapi({
  description:
    'Where the account\'s data (tasks, lists, keys\' status) is stored: "global" (near where the account is first used) or "eu" (in the European Union, by Cloudflare\'s Durable Objects jurisdiction). Chosen at sign-up only; it never changes. docs/security.md says what it covers.',
});

export const Membership = z.object({
  plan: z.enum(["free", "max"]),
  active: z.boolean(),
  expiresAt: z.string().nullable(),
});

export const ApiKeySummary = z.object({
  id: z.string(),
  name: z.string(),
  hint: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

export const SessionSummary = z
  .object({
    id: z.string(),
    createdAt: z.string().openapi({ description: "When it signed in (RFC 3339 UTC)." }),
    lastUsedAt: z
      .string()
      .nullable()
      .openapi({ description: "Last request with it, refreshed at most once a minute." }),
    userAgent: z
      .string()
      .nullable()
      .openapi({ description: "The browser or client that signed in, as it named itself (at most 256 characters)." }),
    current: z.boolean().openapi({ description: "True for the session that sent this request." }),
  })
  .openapi("Session");

export const SecurityEvent = z
  .object({
    type: z.string().openapi({
      description:
        "signed_up, signed_in, password_changed, password_reset, email_change_requested, email_changed, totp_enabled, totp_disabled, passkey_added, passkey_removed, session_ended, signed_out_everywhere, oauth_connected.",
    }),
    at: z.string().openapi({ description: "When (RFC 3339 UTC)." }),
    device: z
      .string()
      .optional()
      .openapi({ description: "The browser or client that did it, as it named itself (sign-ins)." }),
  })
  .catchall(z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .openapi("SecurityEvent", {
    description:
      "One event of the account's audit trail (kept 90 days), with its facts beside: `method` of a sign-in, `address` of an email change, `app` of an OAuth connection.",
  });
