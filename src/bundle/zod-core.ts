/** zod/v4/core with only the English locale: see ./zod.ts. */
import en from "zod/v4/locales/en.js";

export * from "zod/v4/core";
export const locales = { en };
