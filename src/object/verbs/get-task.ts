import * as write from "../tasks/write";
import { verb } from "./verb";

/** GET /api/v1/tasks/{id}, get_task: one live task (404 otherwise), with its subtasks on request. */
export const getTask = verb({ writes: false, needsMax: true, run: write.getTask });
