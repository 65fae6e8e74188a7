import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/durable-sqlite";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/object/schema";
import { migrateInOrder } from "../../src/object/migrate";
import migrations from "../../src/object/migrations/migrations";
import { type VerbName, verbs } from "../../src/object/verbs";
import { none, type Verb, verb } from "../../src/object/verbs/verb";
import type { AccountContext } from "../../src/object/context";
import { deleteTask } from "../../src/object/tasks/write";
import { type EventType, eventTypes } from "../../src/domain/webhooks/schemas";

/**
 * Every verb, from its one declaration (src/object/verbs/<verb>.ts): what it needs, whether it writes,
 * and the events it raises. A new verb must join these tables, and a writing verb must say what it
 * raises, even when that is nothing.
 */

/** Which verbs need an active Max membership, and which write: pinned, so a change is a decision. */
const TABLE: Record<VerbName, { needsMax: boolean; writes: boolean }> = {
  authenticate: { needsMax: true, writes: false },
  identify: { needsMax: false, writes: false },
  listTasks: { needsMax: true, writes: false },
  getTask: { needsMax: true, writes: false },
  createTask: { needsMax: true, writes: true },
  updateTask: { needsMax: true, writes: true },
  completeTask: { needsMax: true, writes: true },
  deleteTask: { needsMax: true, writes: true },
  moveTask: { needsMax: true, writes: true },
  listLists: { needsMax: true, writes: false },
  createList: { needsMax: true, writes: true },
  updateList: { needsMax: true, writes: true },
  deleteList: { needsMax: true, writes: true },
  listLabels: { needsMax: true, writes: false },
  createLabel: { needsMax: true, writes: true },
  updateLabel: { needsMax: true, writes: true },
  deleteLabel: { needsMax: true, writes: true },
  listTasksWithLists: { needsMax: true, writes: false },
  listWebhooks: { needsMax: true, writes: false },
  listAccountWebhooks: { needsMax: true, writes: false },
  createWebhook: { needsMax: true, writes: true },
  updateWebhook: { needsMax: true, writes: true },
  deleteWebhook: { needsMax: true, writes: true },
  testWebhook: { needsMax: true, writes: true },
  rotateWebhookSecret: { needsMax: true, writes: true },
  listWebhookDeliveries: { needsMax: true, writes: false },
  // The feed can be set up without Max; reading it needs Max (the object's `feed`).
  getFeed: { needsMax: false, writes: false },
  rotateFeed: { needsMax: false, writes: true },
  deleteFeed: { needsMax: false, writes: true },
  importTasks: { needsMax: true, writes: true },
  listPushSubscriptions: { needsMax: true, writes: false },
  addPushSubscription: { needsMax: true, writes: true },
  removePushSubscription: { needsMax: true, writes: true },
};

/** Raised by no verb: the alarm fires reminders (object/tasks/reminders.ts, test/events/reminders.test.ts). */
const RAISED_BY_THE_ALARM: EventType[] = ["task.reminder"];

const registry = Object.entries(verbs) as [VerbName, Verb][];

/** The writing verbs that do not declare their events: neither a rule (`raises`, `after`) nor `none`. */
const undeclared = (entries: [string, Verb][]) =>
  entries
    .filter(([, v]) => v.writes !== false)
    .filter(([, v]) => {
      const events = (v as { events?: unknown }).events;
      if (events === none) return false;
      const rule = events as { raises?: unknown; after?: unknown } | undefined;
      return !(Array.isArray(rule?.raises) && rule.raises.length > 0 && typeof rule.after === "function");
    })
    .map(([name]) => name);

describe("the verbs", () => {
  it("need Max and write exactly as the table says, and no verb is missing from it", () => {
    const declared = Object.fromEntries(
      registry.map(([name, v]) => [name, { needsMax: v.needsMax, writes: v.writes }]),
    );
    expect(declared).toEqual(TABLE);
  });

  it("precompute outside the transaction only where they must: createTask's input hash for its idempotency key, importTasks' file hash for its stable ids, addPushSubscription's check that the device's key is a P-256 point", () => {
    expect(registry.filter(([, v]) => v.prepare).map(([name]) => name)).toEqual([
      "createTask",
      "importTasks",
      "addPushSubscription",
    ]);
  });

  it("declare their events when they write: a rule or `none`", () => {
    expect(undeclared(registry)).toEqual([]);
  });

  it("count a verb that says nothing about writing as a writer, and one without events as undeclared", () => {
    const run = (_ctx: AccountContext, _args: { id: string }) => null;
    const silent = { needsMax: true, run } as unknown as Verb;
    const writer = { writes: true, needsMax: true, run } as unknown as Verb;
    const emptyRule = { writes: true, needsMax: true, run, events: { raises: [] } } as unknown as Verb;
    expect(
      undeclared([
        ["silent", silent],
        ["writer", writer],
        ["emptyRule", emptyRule],
      ]),
    ).toEqual(["silent", "writer", "emptyRule"]);
    // And the compiler refuses the same declaration (tsc over test/).
    // @ts-expect-error a writing verb must declare `events`
    verb({ writes: true, needsMax: true, run: deleteTask });
  });

  it("raise every event type: each by some verb's rule, or by the alarm", () => {
    const raised = new Set<EventType>(RAISED_BY_THE_ALARM);
    for (const [, v] of registry) if (v.writes && v.events !== none) for (const t of v.events.raises) raised.add(t);
    expect([...raised].sort()).toEqual([...eventTypes, "webhook.test"].sort());
  });

  it("that are reads change no row of the account's database", async () => {
    const stub = env.ACCOUNTS.get(env.ACCOUNTS.idFromName(crypto.randomUUID()));
    await runInDurableObject(stub, (_instance, state) => {
      // A new object has no tables until sign-up's init (account-object.ts): set them up as init does.
      migrateInOrder(state.storage, migrations);
      const ctx: AccountContext = { db: drizzle(state.storage, { schema }), timeZone: "UTC" };
      const { task } = verbs.createTask.run(ctx, { input: { title: "Milk", listId: "Errands", labels: ["shop"] } });
      const webhook = verbs.createWebhook.run(ctx, {
        input: { url: "https://example.com/hook" },
        allowLoopback: false,
      });
      const argsOf: { [V in VerbName]?: unknown } = {
        authenticate: undefined,
        identify: undefined,
        listTasks: {},
        getTask: { id: task.id },
        listLists: {},
        listLabels: undefined,
        listTasksWithLists: { limit: 10 },
        listWebhooks: undefined,
        listAccountWebhooks: undefined,
        listWebhookDeliveries: { id: webhook.id },
        getFeed: undefined,
        listPushSubscriptions: undefined,
      };
      const changes = () => state.storage.sql.exec<{ n: number }>("SELECT total_changes() AS n").one().n;
      for (const [name, v] of registry.filter(([, v]) => !v.writes)) {
        expect(name in argsOf, `${name}: add its arguments to argsOf`).toBe(true);
        const before = changes();
        v.run(ctx, argsOf[name]);
        expect(changes(), name).toBe(before);
      }
      // The measure moves on a write: the check above can fail.
      const before = changes();
      verbs.deleteTask.run(ctx, { id: task.id });
      expect(changes()).toBeGreaterThan(before);
    });
  });
});
