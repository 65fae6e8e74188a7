import { eq, inArray } from "drizzle-orm";
import { sha256Hex } from "../../domain/crypto";
import { loadChrono } from "../../lazy/load";
import { CHUNK, type ImportArgs, importTasks as run } from "../import/apply";
import { createdLabels } from "../labels/names";
import { toList } from "../lists/service";
import { lists, tasks } from "../schema";
import { toTask } from "../tasks/row";
import type { Event } from "../webhooks/outbox";
import { verb } from "./verb";

/**
 * POST /api/v1/import: a file of tasks (this service's export, or a Todoist CSV) written in one
 * transaction, whole or not at all. Each task it writes raises task.created, each list and label it
 * makes list.created and label.created, as a create would.
 */
export const importTasks = verb({
  writes: true,
  needsMax: true,
  // The file's hash names the tasks of a CSV (stable ids), and WebCrypto cannot run inside the transaction; a CSV's
  // dates need chrono-node, a lazily loaded module (src/lazy/load.ts), which cannot be loaded inside it either.
  prepare: async (args: ImportArgs): Promise<ImportArgs> => ({
    ...args,
    fileHash: await sha256Hex(args.text),
    ...(args.format === "csv" ? { chrono: await loadChrono() } : {}),
  }),
  run,
  events: {
    raises: ["task.created", "list.created", "label.created"],
    after: (db, _args, { written }) => {
      const made = written.lists.flatMap((id): Event<"list.created">[] => {
        const row = db.select().from(lists).where(eq(lists.id, id)).get();
        return row ? [{ type: "list.created", data: toList(db, row) }] : [];
      });
      const created: Event<"task.created">[] = [];
      // Only a task with a reminder has one to schedule: new rows have none waiting.
      const reminded: string[] = [];
      for (let i = 0; i < written.tasks.length; i += CHUNK) {
        const ids = written.tasks.slice(i, i + CHUNK);
        const rows = new Map(
          db
            .select()
            .from(tasks)
            .where(inArray(tasks.id, ids))
            .all()
            .map((row) => [row.id, row]),
        );
        for (const id of ids) {
          const row = rows.get(id)!;
          created.push({ type: "task.created", data: toTask(row) });
          if (row.reminder) reminded.push(id);
        }
      }
      const labelled = createdLabels(db, { newLabels: written.labels });
      return { events: [...made, ...labelled, ...created], tasks: reminded };
    },
  },
});
