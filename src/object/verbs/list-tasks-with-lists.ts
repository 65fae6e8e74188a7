import { listLists } from "../lists/service";
import { type ListTasksQuery, listTasks } from "../tasks/list";
import { verb } from "./verb";

/** list_tasks with `lists: true` (MCP): the tasks and the lists in the same call. */
export const listTasksWithLists = verb({
  writes: false,
  needsMax: true,
  run: (ctx, query: ListTasksQuery) => ({ page: listTasks(ctx, query), lists: listLists(ctx, {}).lists }),
});
