import { ListInput } from "../../domain/lists/schemas";
import * as lists from "../lists/service";
import { verb } from "./verb";

/** POST /api/v1/lists, create_list, the page's new list: list.created. */
export const createList = verb({
  writes: true,
  needsMax: true,
  input: ListInput,
  run: lists.createList,
  events: {
    raises: ["list.created"],
    after: (_db, _args, list) => ({ events: [{ type: "list.created", data: list }], tasks: [] }),
  },
});
