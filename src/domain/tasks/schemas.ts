import * as z from "zod";
import { type TaskFields, taskFields } from "./fields";
import { TaskId, Timestamp } from "./values";

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
};
export const Task = z
  .object(
    Object.fromEntries(
      declared("output").map(([key, f]) => [key, f.output === "always" ? f.schema : f.schema.optional()]),
    ) as TaskShape,
  )
  .meta({ id: "Task", description: "A personal task." });
export type Task = z.infer<typeof Task>;

type InputShape = {
  [K in keyof Declared<"input">]: Declared<"input">[K] extends { input: "required" }
    ? SchemaOf<Declared<"input">[K]>
    : z.ZodOptional<SchemaOf<Declared<"input">[K]>>;
};
export const TaskInput = z
  .strictObject(
    Object.fromEntries(
      declared("input").map(([key, f]) => [key, f.input === "required" ? f.schema : f.schema.optional()]),
    ) as InputShape,
  )
  .meta({ id: "TaskInput", description: "A new task. Properties other than those listed are refused." });
export type TaskInput = z.infer<typeof TaskInput>;

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
  .strictObject(Object.fromEntries(declared("patch").map(([key, f]) => [key, patchSchema(f)])) as PatchShape)
  .meta({
    id: "TaskPatch",
    description: "Fields to change; send only those. `{}` is a no-op. Properties other than those listed are refused.",
  });
export type TaskPatch = z.infer<typeof TaskPatch>;

export const Tombstone = z
  .object({ id: TaskId, deletedAt: Timestamp })
  .meta({ id: "Tombstone", description: "A task deleted at or after `since`." });
