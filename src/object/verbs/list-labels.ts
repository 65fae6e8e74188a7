import * as labels from "../labels/service";
import { verb } from "./verb";

/** GET /api/v1/labels, the tasks page: the labels by name, each with its count of live tasks. */
export const listLabels = verb({ writes: false, needsMax: true, run: labels.listLabels });
