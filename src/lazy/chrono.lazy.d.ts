// src/lazy/chrono.lazy.js: chrono-node's English parser, for reading a Todoist CSV's DATE column on import only
// (src/object/verbs/import-tasks.ts loads it before the transaction).
export { parse } from "chrono-node/en";
