import { eq, inArray, type SQL } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/sqlite-core";
import { labels, taskLabels, tasks } from "../schema";

const labelled = new QueryBuilder();

/** "The task has a label whose row matches `where`", as a condition on `tasks`: one subquery on task_labels. */
export const hasLabelWhere = (where: SQL): SQL =>
  inArray(
    tasks.id,
    labelled
      .select({ id: taskLabels.taskId })
      .from(taskLabels)
      .innerJoin(labels, eq(labels.id, taskLabels.labelId))
      .where(where),
  );
