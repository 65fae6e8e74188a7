import * as z from "zod";
import { EXPORT_FORMAT } from "../control/accounts/export";
import { Label } from "../domain/labels/schemas";
import { List } from "../domain/lists/schemas";
import { Task } from "../domain/tasks/schemas";
import { Timestamp } from "../domain/tasks/values";
import { Webhook } from "../domain/webhooks/schemas";
import { PushSubscriptionView } from "../domain/push/subscription";
import { PasskeySummary } from "./passkey-schemas";
import { ConnectionSummary } from "./account-connections";
import { ApiKeySummary, DataLocationField, Membership, SecurityEvent, SessionSummary } from "./account-schemas";

/**
 * The shape of `GET /account/export`, published as JSON Schema in the OpenAPI document. The
 * document is written by a stream (control/accounts/export.ts), not by this schema;
 * test/account/export.test.ts parses a real export with it, so the two cannot drift apart.
 */
export const AccountExport = z
  .object({
    format: z.literal(EXPORT_FORMAT).openapi({ description: "Name and version of this document's shape." }),
    exportedAt: z.string().openapi({ description: "When the export was made (RFC 3339 UTC)." }),
    account: z.object({
      id: z.string(),
      email: z.string(),
      timeZone: z.string().openapi({ description: "IANA time zone in which repeating tasks advance." }),
      dataLocation: DataLocationField,
      createdAt: Timestamp,
    }),
    membership: Membership,
    apiKeys: z.array(ApiKeySummary).openapi({
      description: "Every key, revoked and expired ones too: name, hint and dates. Never a key or its hash.",
    }),
    sessions: z
      .array(SessionSummary)
      .openapi({ description: "The signed-in sessions that are still live. Never a token or its hash." }),
    lists: z.array(List.pick({ id: true, name: true, createdAt: true, updatedAt: true })).openapi({
      description: "Every list, by name. Deleted lists are not included; a task's `listId` is a list's `id`.",
    }),
    labels: z.array(Label.pick({ id: true, name: true, color: true, createdAt: true, updatedAt: true })).openapi({
      description: "Every label, by name, with its colour. A task's `labels` holds labels' names.",
    }),
    connections: z
      .array(
        ConnectionSummary.extend({
          clientId: z.string().openapi({ description: "The app's OAuth client_id." }),
          revokedAt: z.string().nullable().openapi({ description: "When it was revoked, or null." }),
        }),
      )
      .openapi({
        description:
          "Every app connected over OAuth, revoked ones too: name, redirect host, scopes, dates. Never a token.",
      }),
    billing: z
      .object({
        customer: z
          .object({
            customerId: z.string().openapi({ description: "The Stripe customer (`cus_…`)." }),
            paymentFailedAt: z.string().nullable().openapi({ description: "The last failed payment, or null." }),
            updatedAt: z.string(),
          })
          .nullable()
          .openapi({ description: "The account's Stripe customer, or null if it never subscribed." }),
        subscriptions: z
          .array(
            z.object({
              id: z.string().openapi({ description: "The Stripe subscription (`sub_…`)." }),
              status: z.string(),
              currentPeriodEnd: z.string().nullable(),
              cancelAt: z.string().nullable(),
              pastDueSince: z.string().nullable(),
              maxUntil: z.string().nullable().openapi({ description: "Max until then because of it." }),
              updatedAt: z.string(),
            }),
          )
          .openapi({ description: "Each subscription's last known state." }),
      })
      .openapi({ description: "What Stripe told the service about the account (docs/billing.md). No card data." }),
    webhooks: z
      .array(Webhook)
      .openapi({ description: "Every webhook: URL, events, description, state. Never a signing secret." }),
    passkeys: z.array(PasskeySummary).openapi({
      description: "The account's passkeys: id, name and when each was added and last used (not their public keys).",
    }),
    pushSubscriptions: z.array(PushSubscriptionView).openapi({
      description: "The devices that get reminders as browser notifications (their push endpoints, not their keys).",
    }),
    securityEvents: z.array(SecurityEvent).openapi({
      description:
        "The account's security events of the last 90 days (sign-ins, password and email changes, …), newest first.",
    }),
    tasks: z
      .array(Task.extend({ createdAt: Timestamp.meta({ description: "When the task was created." }) }))
      .openapi({ description: "Every task, completed ones included, in id order. Deleted tasks are not included." }),
  })
  .openapi("AccountExport", {
    description:
      "Everything the service keeps about an account (GDPR art. 15 and 20). `todo-export/2` added `lists` and " +
      "`connections` (apps connected over OAuth); later, without a new version (fields added only), `billing`, `webhooks`, `labels`, `securityEvents`, `pushSubscriptions` and `passkeys`.",
  });
