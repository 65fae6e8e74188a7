import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EXPORT_PAGE_SIZE } from "../../src/object/export";
import { createDb } from "../../src/control/db";
import { exportStream } from "../../src/control/accounts/export";
import { call, maxUser } from "../helpers";

/**
 * The export of a large account is streamed a page at a time: this seeds 10,000 realistic tasks,
 * reads the export chunk by chunk and prints its size and time (docs/scaling.md). The largest chunk
 * stays one page, which is what bounds the Worker's memory whatever the account's size.
 */
const TASKS = 10_000;
// 5 bound parameters per row, 16 rows per INSERT: 80, under the 100 a statement takes.
const ROWS_PER_INSERT = 16;

/** The tasks, written straight into the account's object (where its tasks live), in one transaction. */
async function seed(accountId: string) {
  await runInDurableObject(env.ACCOUNTS.get(env.ACCOUNTS.idFromName(accountId)), (_instance, state) =>
    state.storage.transactionSync(() => {
      for (let i = 0; i < TASKS; i += ROWS_PER_INSERT) {
        const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, TASKS - i) }, (_, j) => i + j);
        state.storage.sql.exec(
          `INSERT INTO tasks (id, title, notes, due, completed) VALUES ${rows.map(() => "(?, ?, ?, ?, ?)").join(", ")}`,
          ...rows.flatMap((n) => [
            `scale-${String(n).padStart(6, "0")}`,
            `Task ${n}: renew the passport and book the dentist`,
            n % 3 === 0 ? "Bring the old passport, two photos and the form printed on both sides." : null,
            `2027-${String((n % 12) + 1).padStart(2, "0")}-${String((n % 28) + 1).padStart(2, "0")}`,
            n % 4 === 0 ? 1 : 0,
          ]),
        );
      }
    }),
  );
}

describe("export of a large account", { timeout: 120_000 }, () => {
  it(`streams ${TASKS.toLocaleString("en")} tasks a page at a time`, async () => {
    const user = await maxUser("export-scale");
    await seed(user.accountId);
    const started = performance.now();
    const res = await call("/account/export", { token: user.session });
    expect(res.status).toBe(200);
    const firstByte = performance.now() - started;
    const chunks: Uint8Array[] = [];
    for await (const chunk of res.body!) chunks.push(chunk);
    const elapsed = performance.now() - started;
    const bytes = chunks.reduce((sum, c) => sum + c.byteLength, 0);
    const doc = JSON.parse(await new Blob(chunks).text());
    expect(doc.tasks).toHaveLength(TASKS);

    // What the Worker holds at once: the stream's own pieces, each one page of tasks at most
    // (about 200 bytes a task here), never the whole document.
    let largest = 0;
    let pieces = 0;
    for await (const piece of await exportStream(createDb(env.DB), env, user.accountId, "none")) {
      largest = Math.max(largest, piece.byteLength);
      pieces++;
    }
    expect(pieces).toBe(TASKS / EXPORT_PAGE_SIZE + 2);
    expect(largest).toBeLessThan(EXPORT_PAGE_SIZE * 300);
    console.log(
      `[export] ${TASKS} tasks: ${bytes} bytes, ${pieces} pieces of at most ${largest} bytes, first byte ${firstByte.toFixed(0)} ms, all ${elapsed.toFixed(0)} ms`,
    );
  });
});
