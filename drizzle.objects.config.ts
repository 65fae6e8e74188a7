import { defineConfig } from "drizzle-kit";

// The per-account Durable Object's SQLite (src/object/schema.ts): migrations bundled into the Worker
// and run by each object when it starts (src/object/account-object.ts).
export default defineConfig({
  dialect: "sqlite",
  driver: "durable-sqlite",
  schema: "./src/object/schema.ts",
  out: "./src/object/migrations",
});
