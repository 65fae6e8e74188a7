import { eq, inArray, type SQL } from "drizzle-orm";
import { newId } from "../../domain/ids";
import type { AccountContext, AccountDb } from "../context";
import { nameKeyOf } from "../../domain/lists/names";
import { labels } from "../schema";
import { hasLabelWhere } from "./labelled";
import type { RowValues } from "../tasks/row";
import type { Event } from "../webhooks/outbox";
import { labelColumns, labelsWithCounts } from "./service";

/**
 * Labels by name: a task's `labels` as the labels they mean, and the label filter. Unlike a list, a label
 * is a free-form tag, so a name no label has creates one, as every peer does.
 */

/**
 * A write's `labels` as stored: each name matched to a label ignoring case and written in that label's
 * spelling; a name that matches none creates the label. A name given twice (in any case) counts once.
 * Every task write passes its values through here (tasks/insert.ts, tasks/write.ts).
 */
export function withResolvedLabels({ db }: AccountContext, values: RowValues): RowValues {
  if (!Array.isArray(values.labels)) return values;
  const byKey = new Map<string, string>();
  for (const name of values.labels as string[]) if (!byKey.has(nameKeyOf(name))) byKey.set(nameKeyOf(name), name);
  if (byKey.size === 0) return values;
  const stored = new Map(
    db
      .select({ nameKey: labels.nameKey, name: labels.name })
      .from(labels)
      .where(inArray(labels.nameKey, [...byKey.keys()]))
      .all()
      .map((row) => [row.nameKey, row.name]),
  );
  for (const [key, name] of byKey) {
    if (stored.has(key)) continue;
    db.insert(labels)
      .values({ id: newId(), ...labelColumns(name) })
      .run();
    stored.set(key, name);
  }
  return { ...values, labels: [...byKey.keys()].map((key) => stored.get(key)!) };
}

/** The label keys a write names that no label has yet: the labels it will create (label.created). */
export function labelsBefore(db: AccountDb, names: readonly string[] | undefined): { newLabels?: string[] } {
  if (!names?.length) return {};
  const keys = [...new Set(names.map(nameKeyOf))];
  const known = new Set(
    db
      .select({ nameKey: labels.nameKey })
      .from(labels)
      .where(inArray(labels.nameKey, keys))
      .all()
      .map((row) => row.nameKey),
  );
  return { newLabels: keys.filter((key) => !known.has(key)) };
}

/** label.created for each label a task write brought into being (labelsBefore). */
export function createdLabels(db: AccountDb, before: { newLabels?: string[] }): Event<"label.created">[] {
  if (!before.newLabels?.length) return [];
  return labelsWithCounts(db, inArray(labels.nameKey, before.newLabels)).map((label) => ({
    type: "label.created",
    data: label,
  }));
}

/** "The task has every one of these labels" (names, matched ignoring case), as conditions on `tasks`. */
export const hasLabels = (names: readonly string[]): SQL[] =>
  names.map((name) => hasLabelWhere(eq(labels.nameKey, nameKeyOf(name))));
