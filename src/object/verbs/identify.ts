import { verb } from "./verb";

/** The credential alone, Max not required: an MCP request that ran no task verb (calendars, tools/list). */
export const identify = verb({ writes: false, needsMax: false, run: () => null });
