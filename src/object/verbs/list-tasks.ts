import * as list from "../tasks/list";
import { verb } from "./verb";

/** GET /api/v1/tasks, list_tasks, the tasks page: a page of tasks, filtered, searched or synced `since`. */
export const listTasks = verb({ writes: false, needsMax: true, run: list.listTasks });
