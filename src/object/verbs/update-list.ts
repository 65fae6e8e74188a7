import { eq } from "drizzle-orm";
import { ListPatch } from "../../domain/lists/schemas";
import * as service from "../lists/service";
import { lists } from "../schema";
import { nothing } from "./events";
import { verb } from "./verb";

/** PATCH /api/v1/lists/{id}, update_list: a rename raises list.updated; `{}` changes nothing and raises nothing. */
export const updateList = verb({
  writes: true,
  needsMax: true,
  input: { patch: ListPatch },
  run: service.updateList,
  events: {
    raises: ["list.updated"],
    before: (db, { id }) => db.select({ updatedAt: lists.updatedAt }).from(lists).where(eq(lists.id, id)).get(),
    after: (_db, _args, list, before) =>
      before?.updatedAt === list.updatedAt ? nothing : { events: [{ type: "list.updated", data: list }], tasks: [] },
  },
});
