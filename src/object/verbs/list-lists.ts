import * as lists from "../lists/service";
import { verb } from "./verb";

/** GET /api/v1/lists, list_lists, the tasks page: the lists with their counts, or their changes `since`. */
export const listLists = verb({ writes: false, needsMax: true, run: lists.listLists });
