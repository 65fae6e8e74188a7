import { eq } from "drizzle-orm";
import { LabelPatch } from "../../domain/labels/schemas";
import * as service from "../labels/service";
import { labels } from "../schema";
import { nothing } from "./events";
import { verb } from "./verb";

/**
 * PATCH /api/v1/labels/{id}: label.updated, and a rename raises task.updated for each live task with the
 * label (its `labels` changed). `{}`, or the values it has, raise nothing.
 */
export const updateLabel = verb({
  writes: true,
  needsMax: true,
  input: { patch: LabelPatch },
  run: service.updateLabel,
  events: {
    raises: ["label.updated", "task.updated"],
    before: (db, { id }) =>
      db.select({ name: labels.name, updatedAt: labels.updatedAt }).from(labels).where(eq(labels.id, id)).get(),
    after: (db, { id }, label, before) => {
      if (before?.updatedAt === label.updatedAt) return nothing;
      const relabelled = before?.name === label.name ? [] : service.tasksWithLabelNow(db, id);
      return {
        events: [
          { type: "label.updated", data: label },
          ...relabelled.map((task) => ({ type: "task.updated" as const, data: task })),
        ],
        tasks: [],
      };
    },
  },
});
