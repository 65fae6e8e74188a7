import * as z from "zod";

/** Pieces shared by the session routes' files (account.ts, account-security.ts, account-data.ts). */

export const json = <T extends z.ZodType>(schema: T) => ({ content: { "application/json": { schema } } });
export const body = <T extends z.ZodType>(schema: T) => ({ body: { required: true, ...json(schema) } });
export const session = [{ sessionAuth: [] }];

/** The password rule of sign-up, also for a new password. */
export const NewPassword = z.string().min(10, { error: "must be at least 10 characters" }).max(1024);
/** A password being checked: any length a sign-up could have set. */
export const GivenPassword = z.string().min(1, { error: "must not be empty" }).max(1024);
