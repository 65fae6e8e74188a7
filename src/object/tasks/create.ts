import { AppError } from "../../domain/errors";
import { MAX_TASKS_PER_CREATE, type SubtaskInput, type TaskInput, type TaskTree } from "../../domain/tasks/schemas";
import { MAX_TASK_DEPTH } from "../../domain/tasks/values";
import type { AccountContext } from "../context";
import { hasList, listCreated } from "../lists/names";
import type { TaskRow } from "../schema";
import { reopenParents } from "./cascade";
import { type Created, createTaskOnce } from "./idempotency";
import { insertTask, withResolvedList } from "./insert";
import { withPriority } from "./priority";
import { inputColumns, toTask } from "./row";
import { parentFor } from "./tree";

export interface CreateTaskArgs {
  input: TaskInput;
  /** Idempotency-Key (REST) or clientRequestId (MCP): a retry with the same key and input replays the first result. */
  idempotencyKey?: string;
  /** The input's SHA-256, set by the object before the transaction when there is a key (idempotency.ts). */
  requestHash?: string;
}

/** Creates a task, and says whether the result is a replay of an earlier request with the same idempotency key. */
export function createTask(ctx: AccountContext, { input, idempotencyKey, requestHash }: CreateTaskArgs) {
  const create = () => createTree(ctx, input);
  if (idempotencyKey !== undefined) return createTaskOnce(ctx, idempotencyKey, requestHash, create);
  const { row: _row, ...created } = create();
  return { ...created, replayed: false };
}

const refuse = (path: string, message: string) =>
  new AppError("validation_failed", `Invalid ${path}: ${message}`, [{ path, message }]);

const countOf = (inputs: SubtaskInput[] = []): number =>
  inputs.reduce((sum, input) => sum + 1 + countOf(input.subtasks), 0);
const heightOf = (inputs: SubtaskInput[] = []): number =>
  inputs.length === 0 ? 1 : 1 + Math.max(...inputs.map((input) => heightOf(input.subtasks)));

/** The task and its subtasks, in the object's one transaction: all of them, or none (an error rolls back). */
function createTree(ctx: AccountContext, input: TaskInput): Created {
  const { subtasks, ...fields } = input;
  if (1 + countOf(subtasks) > MAX_TASKS_PER_CREATE)
    throw refuse("subtasks", `one create makes at most ${MAX_TASKS_PER_CREATE} tasks, this task and its subtasks`);
  const height = heightOf(subtasks);
  let values = withPriority(withResolvedList(ctx, inputColumns(fields)));
  if (typeof values.parentId === "string") {
    const parent = parentFor(ctx.db, values.parentId, height);
    if (fields.listId !== undefined && values.listId !== parent.listId)
      throw refuse("listId", "a subtask is always in its parent's list: leave listId out");
    values = { ...values, listId: parent.listId };
  } else if (height > MAX_TASK_DEPTH) {
    throw refuse("subtasks", `tasks nest at most ${MAX_TASK_DEPTH} levels: these subtasks reach level ${height}`);
  }
  const newList = typeof values.listId === "string" && !hasList(ctx.db, values.listId);
  const row = insertTask(ctx, values);
  const task: TaskTree = toTask(row);
  if (subtasks?.length) task.subtasks = insertSubtasks(ctx, row, subtasks);
  const cascade = reopenParents(ctx.db, row);
  return {
    row,
    task,
    ...(cascade.length > 0 ? { cascade } : {}),
    ...(newList ? { notice: { listCreated: listCreated(ctx.db, row.listId!) } } : {}),
  };
}

function insertSubtasks(ctx: AccountContext, parent: TaskRow, inputs: SubtaskInput[]): TaskTree[] {
  return inputs.map(({ subtasks, ...fields }) => {
    const row = insertTask(ctx, { ...withPriority(inputColumns(fields)), listId: parent.listId, parentId: parent.id });
    const task: TaskTree = toTask(row);
    if (subtasks?.length) task.subtasks = insertSubtasks(ctx, row, subtasks);
    return task;
  });
}
