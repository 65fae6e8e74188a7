// Moved to domain/mail/ so the account object (reminder mail) can send through it too; kept for the control plane's imports.
export * from "../../domain/mail/mailer";
