import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { tasks } from "../../src/db/schema";
import { sha256Hex } from "../../src/domain/crypto";
import {
  type Caller,
  taskStatement,
  runWithVerdictRow,
  runWithVerdictRows,
  type VerdictStatement,
} from "../../src/domain/tasks/statements";
import { getTaskAs } from "../../src/domain/tasks/write";
import { createTask, maxUser } from "../helpers";

const titles = taskStatement((scope, _shape: null) =>
  scope.db.select({ title: tasks.title, verdict: scope.verdict }).from(tasks).where(eq(tasks.accountId, scope.account)),
);
const titlesWithoutVerdict = taskStatement((scope, _shape: null) =>
  scope.db.select({ title: tasks.title }).from(tasks).where(eq(tasks.accountId, scope.account)),
);

describe("task statements (domain/tasks/statements.ts)", () => {
  it("only a statement that selects the key's verdict may lead a run (checked by tsc)", () => {
    const caller: Caller = { db: createDb(env.DB), keyHash: "0".repeat(64) };
    const carried: VerdictStatement = titles(caller, null, {});
    // @ts-expect-error: without `verdict` in its rows, a statement cannot tell 401 from "nothing found".
    const missing: VerdictStatement = titlesWithoutVerdict(caller, null, {});
    expect([carried, missing]).toHaveLength(2);
  });

  it("scope every statement by the key's account: a refused key reads nothing, then is judged 401", async () => {
    const user = await maxUser("statements");
    await createTask(user.key, { title: "mine" });
    const db = createDb(env.DB);
    const caller: Caller = { db, keyHash: await sha256Hex(user.key) };
    const { results } = await runWithVerdictRows(caller, [titles(caller, null, {})]);
    expect(results[0]).toEqual([expect.objectContaining({ title: "mine" })]);
    const stranger: Caller = { db, keyHash: "0".repeat(64) };
    await expect(runWithVerdictRows(stranger, [titles(stranger, null, {})])).rejects.toMatchObject({
      code: "unauthorized",
    });
    await expect(runWithVerdictRow(stranger, [titles(stranger, null, {})])).rejects.toMatchObject({
      code: "unauthorized",
    });
  });

  it("scope an account judged before the verb (an OAuth connection) by that account, Max checked", async () => {
    const [alice, bob] = [await maxUser("statements-a"), await maxUser("statements-b")];
    await createTask(alice.key, { title: "alice's" });
    const bobsTask = await createTask(bob.key, { title: "bob's" });
    const db = createDb(env.DB);
    const actor = { accountId: alice.accountId, maxActive: true, timeZone: "UTC" };
    const asAlice: Caller = { db, auth: { actor } };
    const { results } = await runWithVerdictRows(asAlice, [titles(asAlice, null, {})]);
    expect(results[0]).toEqual([expect.objectContaining({ title: "alice's" })]);
    await expect(getTaskAs(asAlice, bobsTask.id)).rejects.toMatchObject({ code: "task_not_found" });
    const lapsed: Caller = { db, auth: { actor: { ...actor, maxActive: false } } };
    await expect(runWithVerdictRow(lapsed, [titles(lapsed, null, {})])).rejects.toMatchObject({
      code: "max_required",
    });
  });
});
