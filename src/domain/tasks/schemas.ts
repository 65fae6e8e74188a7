import * as z from "zod";
import { computedFields, type TaskFields, taskFields } from "./fields";
import { ListRef, MAX_TASK_DEPTH, TaskId, Timestamp } from "./values";

/**
 * The object schemas of a task, derived from fields.ts: REST (OpenAPI) and MCP (tool schemas) use
 * these. The schemas of single values are in values.ts.
 */

type Declared<P extends string> = {
  [K in keyof TaskFields as TaskFields[K] extends Record<P, string> ? K : never]: TaskFields[K];
};
type SchemaOf<F> = F extends { schema: infer S extends z.ZodType } ? S : never;

const declared = <P extends "output" | "input" | "patch">(property: P) =>
  Object.entries(taskFields).filter(([, field]) => property in field) as [
    string,
    Record<P, string> & { schema: z.ZodType; patchMeta?: { description: string; example?: string } },
  ][];

type TaskShape = {
  [K in keyof Declared<"output">]: Declared<"output">[K] extends { output: "always" }
    ? SchemaOf<Declared<"output">[K]>
    : z.ZodOptional<SchemaOf<Declared<"output">[K]>>;
} & { [K in keyof typeof computedFields]: z.ZodOptional<(typeof computedFields)[K]["schema"]> };
export const Task = z
  .object(
    Object.fromEntries(
      [...declared("output"), ...Object.entries(computedFields)].map(([key, f]) => [
        key,
        f.output === "always" ? f.schema : f.schema.optional(),
      ]),
    ) as TaskShape,
  )
  .meta({ id: "Task", description: "A personal task." });
export type Task = z.infer<typeof Task>;

type InputShape = {
  [K in keyof Declared<"input">]: Declared<"input">[K] extends { input: "required" }
    ? SchemaOf<Declared<"input">[K]>
    : z.ZodOptional<SchemaOf<Declared<"input">[K]>>;
};
const inputShape = Object.fromEntries(
  declared("input").map(([key, f]) => [key, f.input === "required" ? f.schema : f.schema.optional()]),
) as InputShape;

/** How many tasks one create may make, the task and all its subtasks at every level. */
export const MAX_TASKS_PER_CREATE = 50;

/** A subtask given with a new task: in its parent's list, under its parent, so neither is given. */
const { listId: _list, parentId: _parent, ...subtaskShape } = inputShape;
const SubtaskFields = z.strictObject(subtaskShape);
export type SubtaskInput = z.infer<typeof SubtaskFields> & { subtasks?: SubtaskInput[] };
/**
 * A subtask where a task tree refers to itself: a lazy schema, so OpenAPI can name it once and point to it
 * (http/v1/task-parameters.ts). Typed by hand: TypeScript cannot infer a schema that refers to itself.
 */
export const SubtaskInputRef: z.ZodType<SubtaskInput> = z.lazy(() => SubtaskInput);
export const SubtaskInput: z.ZodType<SubtaskInput> = SubtaskFields.extend({
  subtasks: z.array(SubtaskInputRef).optional().meta({ description: "Its own subtasks, in order." }),
}).meta({ description: "A subtask of the task it is given with, in that order, and its own subtasks." });

export const TaskInput = z
  .strictObject({
    ...inputShape,
    subtasks: z
      .array(SubtaskInputRef)
      .optional()
      .meta({
        description: `Subtasks to create with it, nested up to ${MAX_TASK_DEPTH} levels in all, at most ${MAX_TASKS_PER_CREATE} tasks in one create, all or none.`,
      }),
  })
  .meta({ id: "TaskInput", description: "A new task. Properties other than those listed are refused." });
export type TaskInput = z.infer<typeof TaskInput>;

/** Where a task goes among its new siblings: right before or after one of them (its list and parent too). */
export const Placement = {
  before: TaskId.optional().meta({ description: "Place it right before this sibling task (same list and parent)." }),
  after: TaskId.optional().meta({ description: "Place it right after this sibling task (same list and parent)." }),
};

/** POST /api/v1/tasks/{id}/move: where a task goes; `{}` leaves it where it is. */
export const TaskMove = z
  .strictObject({
    ...Placement,
    parentId: z
      .union([z.literal(""), TaskId])
      .optional()
      .meta({ description: 'The new parent task\'s id, or "" for the top level.', example: "" }),
    listId: ListRef.optional().meta({
      description: "The list to move it to (its id or name); its subtasks go with it. It goes last there.",
    }),
  })
  .meta({ id: "TaskMove", description: "Where to move a task. Properties other than those listed are refused." });
export type TaskMove = z.infer<typeof TaskMove>;

type Cleared<F> = F extends { patch: "empty" }
  ? z.ZodUnion<[z.ZodLiteral<"">, SchemaOf<F>]>
  : F extends { patch: "null" }
    ? z.ZodNullable<SchemaOf<F>>
    : SchemaOf<F>;
type PatchShape = { [K in keyof Declared<"patch">]: z.ZodOptional<Cleared<Declared<"patch">[K]>> };
/**
 * A field cleared by "" answers null with how to clear it: null clears the reminder, so models send it
 * for the others too, and the union's own message ("Invalid input") did not say what to send instead.
 */
const clearedByEmpty = (schema: z.ZodType) =>
  z.union([z.literal(""), schema], {
    error: (issue) => (issue.input === null ? 'null is not accepted: send "" to clear it' : undefined),
  });

/** A patch value: "" clears an optional text field, null the reminder. */
const patchSchema = (f: {
  patch: string;
  schema: z.ZodType;
  patchMeta?: { description: string; example?: string };
}) => {
  const cleared = f.patch === "empty" ? clearedByEmpty(f.schema) : f.patch === "null" ? f.schema.nullable() : f.schema;
  return f.patchMeta ? cleared.optional().meta(f.patchMeta) : cleared.optional();
};
export const TaskPatch = z
  .strictObject({
    ...(Object.fromEntries(declared("patch").map(([key, f]) => [key, patchSchema(f)])) as PatchShape),
    ...Placement,
  })
  .meta({
    id: "TaskPatch",
    description: "Fields to change; send only those. `{}` is a no-op. Properties other than those listed are refused.",
  });
export type TaskPatch = z.infer<typeof TaskPatch>;

export const Tombstone = z
  .object({ id: TaskId, deletedAt: Timestamp })
  .meta({ id: "Tombstone", description: "A task deleted at or after `since`." });

/** A task with its subtasks, at every level, each ordered by `position`. */
export type TaskTree = Task & { subtasks?: TaskTree[] };
/** As SubtaskInputRef: where a tree of tasks refers to itself. */
export const TaskTreeRef: z.ZodType<TaskTree> = z.lazy(() => TaskTree);
export const TaskTree: z.ZodType<TaskTree> = Task.extend({
  subtasks: z.array(TaskTreeRef).optional().meta({ description: "Its subtasks, in order (`position`)." }),
}).meta({
  description: "A task and, in `subtasks`, its subtasks in order, each with theirs.",
});
