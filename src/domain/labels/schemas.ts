import * as z from "zod";
import { LabelName, Timestamp } from "../tasks/values";

/**
 * Zod schemas of labels, shared by REST (OpenAPI) and MCP. A task carries its labels by name (the task's
 * `labels`); a label's id is for renaming and deleting it.
 */

export const LabelId = z.string().min(1).max(100).meta({
  description: "The label's id (a UUIDv7).",
  example: "01937c4e-8a2b-7c3d-9e4f-5a6b7c8d9e10",
});

export const Color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, { message: "must be a colour as #rrggbb, e.g. #3b82f6" })
  .overwrite((s) => s.toLowerCase())
  .meta({ description: "A colour, `#rrggbb` (stored in lower case).", example: "#3b82f6" });

export const Label = z
  .object({
    id: LabelId,
    name: LabelName.meta({
      description: "The label's name as stored: 1 to 60 characters, unique in the account ignoring case.",
      example: "errand",
    }),
    color: Color.optional(),
    taskCount: z
      .number()
      .int()
      .min(0)
      .meta({ description: "Live tasks with this label, completed ones included.", example: 4 }),
    createdAt: Timestamp.meta({ description: "When the label was created." }),
    updatedAt: Timestamp.meta({ description: "When the label was last renamed or recoloured." }),
  })
  .meta({ id: "Label", description: "A label tasks carry by name, with how many live tasks carry it." });
export type Label = z.infer<typeof Label>;

export const LabelInput = z
  .strictObject({ name: LabelName, color: Color.optional() })
  .meta({ id: "LabelInput", description: "A new label. Properties other than those listed are refused." });
export type LabelInput = z.infer<typeof LabelInput>;

export const LabelPatch = z
  .strictObject({
    name: LabelName.optional().meta({
      description: "The new name: every task with the label shows it from now on.",
      example: "errands",
    }),
    color: z
      .union([z.literal(""), Color], {
        error: (issue) => (issue.input === null ? 'null is not accepted: send "" to clear it' : undefined),
      })
      .optional()
      .meta({ description: 'New colour `#rrggbb`, or "" to remove it.', example: "#22c55e" }),
  })
  .meta({
    id: "LabelPatch",
    description: "Fields to change; send only those. `{}` is a no-op. Properties other than those listed are refused.",
  });
export type LabelPatch = z.infer<typeof LabelPatch>;
