import { crc32 } from "../crypto";

/**
 * Strong entity tags for tasks. A tag names one task at one `updatedAt`, which strictly
 * increases on every change, so it changes whenever the task does. Because the tag encodes
 * `updatedAt`, an If-Match check is a `updated_at = ?` condition inside the write itself.
 */
export const etagOf = (task: { id: string; updatedAt: string }) =>
  `"${crc32(task.id).toString(36)}-${Date.parse(task.updatedAt).toString(36)}"`;

/** What an If-Match header allows: any current version (`*`), or these `updatedAt` values. */
export type Versions = "*" | string[];

/**
 * Reads an If-Match value (RFC 9110 §13.1.1) for the task `id`; none without the header. Weak tags,
 * malformed tags and another task's tags never match (strong comparison), so they leave an empty
 * list: 412.
 */
export function versionsIn(ifMatch: string | undefined, id: string): Versions | undefined {
  if (ifMatch === undefined) return undefined;
  if (ifMatch.trim() === "*") return "*";
  const tag = crc32(id).toString(36);
  const versions: string[] = [];
  for (const [, weak, value] of ifMatch.matchAll(/(W\/)?"([^"]*)"/g)) {
    const match = /^([0-9a-z]+)-([0-9a-z]+)$/.exec(value!);
    if (weak || !match || match[1] !== tag) continue;
    const ms = Number.parseInt(match[2]!, 36);
    if (Number.isSafeInteger(ms) && ms >= 0 && ms < 253402300800000) versions.push(new Date(ms).toISOString());
    if (versions.length >= 20) break;
  }
  return versions;
}

export const matchesVersions = (versions: Versions, updatedAt: string) =>
  versions === "*" || versions.includes(updatedAt);
