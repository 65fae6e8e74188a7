import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { compiled } from "../../src/db/compiled";
import { accounts } from "../../src/db/schema";
import { signUp } from "../helpers";

describe("compiled statements", () => {
  it("build their SQL once, then bind each use's own values, alone and in a batch", async () => {
    const db = createDb(env.DB);
    const [first, second] = [await signUp("compiled-a"), await signUp("compiled-b")];
    let builds = 0;
    const emailOf = compiled<{ id: string }>((d, p) => {
      builds++;
      return d.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, p.id));
    });
    expect(await emailOf.run(db, { id: first.accountId })).toEqual([{ email: first.email }]);
    const [a, b, none] = await db.batch([
      emailOf.with(db, { id: first.accountId }),
      emailOf.with(db, { id: second.accountId }),
      emailOf.with(db, { id: "no-such-account" }),
    ]);
    expect([a, b, none]).toEqual([[{ email: first.email }], [{ email: second.email }], []]);
    expect(builds).toBe(1);
  });
});
