import * as z from "zod";
import { ListId, Timestamp } from "../tasks/values";

/**
 * Zod schemas of lists, shared by REST (OpenAPI) and MCP. A list's id is what tasks carry as
 * `listId` (the ListId rule); its name is for people and unique per account ignoring case.
 */

const MAX_NAME = 100;

export const ListName = z
  .string()
  // As for task titles: a lone surrogate would not survive UTF-8, so it is stored as U+FFFD.
  .overwrite((s) => s.toWellFormed())
  .refine((s) => [...s].length <= MAX_NAME, { message: `must be at most ${MAX_NAME} characters` })
  .refine((s) => s.trim().length > 0, { message: "must contain at least one non-space character" })
  .meta({
    description: `The list's name: 1 to ${MAX_NAME} characters, not only spaces, unique in the account ignoring case.`,
    example: "Groceries",
    minLength: 1,
    maxLength: MAX_NAME,
  });

export const ListCount = z.number().int().min(0);

export const List = z
  .object({
    id: ListId.meta({ description: "The list's id: what its tasks carry as `listId`.", example: "groceries" }),
    name: ListName,
    openCount: ListCount.meta({ description: "Live tasks in the list that are not completed.", example: 3 }),
    taskCount: ListCount.meta({ description: "Live tasks in the list, completed ones included.", example: 5 }),
    createdAt: Timestamp.meta({ description: "When the list was created." }),
    updatedAt: Timestamp.meta({
      description: "When the list last changed: its name, or its counts (a task added, moved, completed or deleted).",
    }),
  })
  .meta({ id: "List", description: "A named list of tasks, with its counts." });
export type List = z.infer<typeof List>;

export const ListInput = z
  .strictObject({
    name: ListName,
    id: ListId.optional().meta({
      description:
        "The id to give the list (1 to 100 of A-Z, a-z, 0-9, _ and -). Without it, the server chooses one. The id of a deleted list may be used again.",
      example: "groceries",
    }),
  })
  .meta({ id: "ListInput", description: "A new list. Properties other than those listed are refused." });
export type ListInput = z.infer<typeof ListInput>;

export const ListPatch = z.strictObject({ name: ListName.optional() }).meta({
  id: "ListPatch",
  description: "Fields to change; send only those. `{}` is a no-op. Properties other than those listed are refused.",
});
export type ListPatch = z.infer<typeof ListPatch>;

export const ListTombstone = z
  .object({ id: ListId, deletedAt: Timestamp })
  .meta({ id: "ListTombstone", description: "A list deleted at or after `since`." });
