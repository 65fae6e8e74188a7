import { listCalendarPacksTool, listHolidaysTool } from "./calendars";
import { listTasksTool } from "./list-tasks";
import { completeTaskTool, createTaskTool, deleteTaskTool, updateTaskTool } from "./tasks";

export type { ToolContext, ToolDescriptor, ToolHints } from "./descriptor";

/** Every tool the server registers, in the order tools/list shows them. */
export const tools = [
  listTasksTool,
  createTaskTool,
  updateTaskTool,
  completeTaskTool,
  deleteTaskTool,
  listCalendarPacksTool,
  listHolidaysTool,
] as const;
