import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { tasks } from "../../src/db/schema";
import { taskJsonSql, toTask } from "../../src/domain/tasks/row";
import { signUp } from "../helpers";

describe("task JSON built by SQLite (listings) and by toTask (everything else)", () => {
  it("gives the same object for every combination of set and unset fields", async () => {
    const db = createDb(env.DB);
    const { accountId } = await signUp("json-shape");
    const variants = [
      { title: "bare" },
      {
        title: 'full ✓ "quoted" \\ 😀',
        notes: "line\nbreak",
        listId: "home",
        due: "2026-12-24",
        reminder: "2026-12-23T08:00:00+01:00",
        repeat: "FREQ=DAILY",
        important: true,
        completed: true,
      },
      { title: "due only", due: "2026-12-24T09:00:00Z", completed: true },
      { title: "notes only", notes: "n", important: false },
    ];
    for (const [i, variant] of variants.entries()) {
      const id = `json-shape-${accountId}-${i}`;
      await db.insert(tasks).values({ id, accountId, ...variant });
      const [row] = await db.select().from(tasks).where(eq(tasks.id, id));
      const [built] = await db
        .select({ json: sql<string>`${taskJsonSql}` })
        .from(tasks)
        .where(eq(tasks.id, id));
      expect(JSON.parse(built!.json)).toStrictEqual(toTask(row!));
      // Same keys in the same order, so both paths serialise to the same bytes.
      expect(built!.json).toBe(JSON.stringify(toTask(row!)));
    }
  });
});
