import { TaskInput } from "../tasks/schemas";
import { importError } from "./plan";

/**
 * The fields of an imported task, checked by TaskInput's own schemas (fields.ts declares them once):
 * an import accepts exactly what a create does. Where the task goes (its list and parent) the plan
 * says apart, so those are not read here.
 */
const PLACED = new Set(["listId", "parentId", "subtasks"]);
const inputKeys = new Set(Object.keys(TaskInput.shape).filter((key) => !PLACED.has(key)));

/** The input with the fields a task takes, or the import fails at this line with what is wrong. */
export function checkedInput(line: number, input: Record<string, unknown>): Record<string, unknown> {
  const known = Object.fromEntries(Object.entries(input).filter(([key]) => inputKeys.has(key)));
  const result = TaskInput.safeParse(known);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "task"} ${issue.message}`);
  throw importError(line, problems.join("; "));
}
