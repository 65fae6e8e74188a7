import { defineConfig } from "drizzle-kit";

// The per-account Durable Object's SQLite (src/account/schema.ts): migrations bundled into the Worker
// and run by each object when it starts (src/account/object.ts).
export default defineConfig({
  dialect: "sqlite",
  driver: "durable-sqlite",
  schema: "./src/account/schema.ts",
  out: "./src/account/migrations",
});
