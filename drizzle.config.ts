import { defineConfig } from "drizzle-kit";

// Generates the SQL migrations that `wrangler d1 migrations apply` and the tests run.
export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./src/control/schema.ts",
    "./src/control/billing-schema.ts",
    "./src/control/email-schema.ts",
    "./src/control/totp-schema.ts",
    "./src/control/passkey-schema.ts",
    "./src/control/security-events-schema.ts",
  ],
  out: "./migrations",
});
