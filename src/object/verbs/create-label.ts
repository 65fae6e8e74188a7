import { LabelInput } from "../../domain/labels/schemas";
import * as labels from "../labels/service";
import { verb } from "./verb";

/** POST /api/v1/labels: label.created. A task that names a new label creates it too (create-task.ts). */
export const createLabel = verb({
  writes: true,
  needsMax: true,
  input: LabelInput,
  run: labels.createLabel,
  events: {
    raises: ["label.created"],
    after: (_db, _args, label) => ({ events: [{ type: "label.created", data: label }], tasks: [] }),
  },
});
