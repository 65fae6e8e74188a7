import { AppError } from "../../domain/errors";
import type { RowValues } from "./row";

/**
 * `priority` (1–4) and `important` stay in step: important ⇔ priority >= 3 (docs/api.md, "Priority").
 * `priority` sets `important`; `important` alone moves priority to the nearest value that agrees
 * (true: at least 3, false: at most 2); both that disagree are refused.
 */
export function withPriority(changes: RowValues, currentPriority = 1): RowValues {
  const { priority, important } = changes as { priority?: number; important?: boolean };
  if (priority !== undefined) {
    if (important !== undefined && important !== priority >= 3) {
      const message = `important: ${important} contradicts priority: ${priority}: important means priority 3 or 4; send one of them`;
      throw new AppError("validation_failed", `Invalid important: ${message}`, [{ path: "important", message }]);
    }
    return { ...changes, important: priority >= 3 };
  }
  if (important === undefined) return changes;
  return {
    ...changes,
    priority: important ? Math.max(currentPriority, 3) : Math.min(currentPriority, 2),
  };
}
