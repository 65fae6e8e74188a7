import * as z from "zod";
import { Task } from "../../domain/tasks/schemas";

/**
 * A task as the MCP tools return it: the domain's Task without what only sync needs. `updatedAt`
 * serves ETags and `since` (MCP syncs by `serverTime`), `position` orders a list for a client that
 * re-sorts (a listing already comes in order, and a model places a task with `before`/`after` ids).
 * Dropped from structuredContent and from the published schema alike, so a result still validates.
 */
const SYNC_ONLY = ["updatedAt", "position"] as const;
type SyncOnly = (typeof SYNC_ONLY)[number];

const present = SYNC_ONLY.filter((name) => name in Task.shape);
const omitted = Task.omit(Object.fromEntries(present.map((name) => [name, true])) as { updatedAt: true });
export const ModelTask = (omitted as unknown as z.ZodType<Omit<Task, SyncOnly>, Omit<Task, SyncOnly>>)
  // The same registry id: tools/list writes it once per tool under $defs as `Task`.
  .meta({ id: "Task", description: "A personal task." });
export type ModelTask = z.infer<typeof ModelTask>;

type WithSubtasks = { subtasks?: readonly object[] };

/** A task (and its subtasks, a repeating task's next one) without the sync-only fields. */
export function forModel<T extends object>(task: T): Omit<T, SyncOnly> {
  const copy = { ...task } as Record<string, unknown>;
  for (const name of SYNC_ONLY) delete copy[name];
  const { subtasks } = task as WithSubtasks;
  if (Array.isArray(subtasks)) copy.subtasks = subtasks.map((sub) => forModel(sub));
  return copy as Omit<T, SyncOnly>;
}

/**
 * The schema of a task field the domain declares (fields.ts), or undefined before it does: the
 * tools for issue 34's fields (priority, labels, parentId) build on the domain's own schema, and
 * pick it up when it lands.
 */
export function declaredField(name: string): z.ZodType | undefined {
  const shape = Task.shape as Record<string, z.ZodType>;
  const schema = shape[name];
  return schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
}
