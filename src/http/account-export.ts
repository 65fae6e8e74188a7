import * as z from "zod";
import { EXPORT_FORMAT } from "../control/accounts/export";
import { List } from "../domain/lists/schemas";
import { Task } from "../domain/tasks/schemas";
import { Timestamp } from "../domain/tasks/values";
import { ConnectionSummary } from "./account-connections";
import { ApiKeySummary, DataLocationField, Membership, SessionSummary } from "./account-schemas";

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
    tasks: z
      .array(Task.extend({ createdAt: Timestamp.meta({ description: "When the task was created." }) }))
      .openapi({ description: "Every task, completed ones included, in id order. Deleted tasks are not included." }),
  })
  .openapi("AccountExport", {
    description:
      "Everything the service keeps about an account (GDPR art. 15 and 20). `todo-export/2` added `lists` and " +
      "`connections` (apps connected over OAuth).",
  });
