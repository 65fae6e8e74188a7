// Moved to domain/mail/ (see mailer.ts here).
export * from "../../domain/mail/messages";
