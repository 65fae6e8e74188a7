import { escapeHtml } from "../html";
import type { Mail } from "./mailer";

/**
 * Every mail the service sends: short, plain, in text and HTML, with no tracking. Each names the account's address
 * and says what to do if it was not you. Links are absolute, on the service's public origin.
 */
const NOT_YOU = "If this was not you, ignore this mail";

export function compose(
  to: string,
  subject: string,
  paragraphs: string[],
  link?: { url: string; label: string },
): Mail {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.url}`] : [])].join("\n\n");
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  if (link) body.splice(1, 0, `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`);
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${body.join("")}</body></html>`;
  return { to, subject, text: `${text}\n`, html };
}

export const verificationMail = (email: string, url: string) =>
  compose(
    email,
    "Confirm your email address",
    [
      `Confirm that ${email} is the address of your Todo account. The link works once, for 24 hours.`,
      `${NOT_YOU}: no account is confirmed without it.`,
    ],
    { url, label: "Confirm this address" },
  );

export const emailChangeMail = (newEmail: string, oldEmail: string, url: string) =>
  compose(
    newEmail,
    "Confirm your new email address",
    [
      `Your Todo account (${oldEmail}) asked to use ${newEmail} from now on. It changes when you open this link, which works once, for 24 hours.`,
      `${NOT_YOU}: the account keeps ${oldEmail}.`,
    ],
    { url, label: "Use this address" },
  );

export const emailChangeNotice = (oldEmail: string, newEmail: string, contact: string) =>
  compose(oldEmail, "Your email address is about to change", [
    `Someone signed in to your Todo account (${oldEmail}) asked to change its address to ${newEmail}. Nothing changes until that address confirms it.`,
    `If this was not you, change your password now and write to ${contact}.`,
  ]);

export const passwordResetMail = (email: string, url: string) =>
  compose(
    email,
    "Reset your password",
    [
      `Someone asked to reset the password of the Todo account ${email}. The link works once, for 30 minutes.`,
      `${NOT_YOU}: your password stays as it is.`,
    ],
    { url, label: "Choose a new password" },
  );

export const passwordChangedNotice = (email: string, contact: string) =>
  compose(email, "Your password was reset", [
    `The password of the Todo account ${email} was just reset. Every session and connected app was signed out; API keys keep working.`,
    `If this was not you, reset it again at once and write to ${contact}.`,
  ]);
