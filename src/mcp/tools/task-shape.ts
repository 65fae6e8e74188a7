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

/**
 * Fields a result leaves out at their defaults (issue 34, "Results come once"): an absent `completed`
 * is an open task, `priority` 1, `important` false, no labels, no notes. Every task in a result paid
 * for them (about 16 tokens a task); their schemas are optional here, so clients that validate
 * structuredContent against the outputSchema still pass, and docs/mcp.md says what an absence means.
 */
const DEFAULTS: Record<string, unknown> = { completed: false, important: false, priority: 1, notes: "" };
const isDefault = (name: string, value: unknown) =>
  DEFAULTS[name] === value || (name === "labels" && Array.isArray(value) && value.length === 0);

const present = SYNC_ONLY.filter((name) => name in Task.shape);
const optional = ["completed", "important", "priority", "labels"].filter((name) => name in Task.shape);
const omitted = Task.omit(Object.fromEntries(present.map((name) => [name, true])) as { updatedAt: true }).partial(
  Object.fromEntries(optional.map((name) => [name, true])) as { completed: true },
);
export const ModelTask = (omitted as unknown as z.ZodType<Omit<Task, SyncOnly>, Omit<Task, SyncOnly>>)
  // The same registry id: tools/list writes it once per tool under $defs as `Task`.
  .meta({ id: "Task", description: "A personal task." });
export type ModelTask = z.infer<typeof ModelTask>;

type WithSubtasks = { subtasks?: readonly object[] };

/**
 * A task (and its subtasks, a repeating task's next one) without the sync-only fields and the
 * defaults. A subtask in a tree goes without its `parentId` and `listId`: it sits under its parent
 * and always shares its list (the domain's rule), so both would only repeat the parent's ids.
 */
export function forModel<T extends object>(task: T, under?: { id?: unknown; listId?: unknown }): Omit<T, SyncOnly> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(task)) {
    if ((SYNC_ONLY as readonly string[]).includes(name) || isDefault(name, value)) continue;
    if (under && ((name === "parentId" && value === under.id) || (name === "listId" && value === under.listId)))
      continue;
    copy[name] = value;
  }
  const { subtasks } = task as WithSubtasks;
  if (Array.isArray(subtasks)) copy.subtasks = subtasks.map((sub) => forModel(sub, task as typeof under));
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
