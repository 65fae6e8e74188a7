import { defineConfig } from "drizzle-kit";

// Generates the SQL migrations that `wrangler d1 migrations apply` and the tests run.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/db/schema.ts", "./src/db/billing-schema.ts"],
  out: "./migrations",
});
