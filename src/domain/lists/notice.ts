/**
 * What a write tells its caller besides the task: that it created a list (a `listId` that matched no
 * list's id or name). REST sends it as the `List-Created` header and `notice` in the body, MCP as a
 * sentence (`listCreatedSentence`), so a list never appears without a word.
 */
export interface ListCreated {
  id: string;
  name: string;
  /** The names of existing lists closest to the one created, closest first (at most 3; maybe none). */
  closest: string[];
}

export interface WriteNotice {
  listCreated?: ListCreated;
}

const quoted = (names: string[]) =>
  names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;

/**
 * `Created a new list "grocery". Did you mean Groceries? Move it with update_task.` `move` names what moves
 * a task on the caller's surface (the MCP tool by default).
 */
export function listCreatedSentence({ name, closest }: ListCreated, move = "update_task"): string {
  const guess = closest.length > 0 ? ` Did you mean ${quoted(closest)}? Move it with ${move}.` : "";
  return `Created a new list "${name}".${guess}`;
}
