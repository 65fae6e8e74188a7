import type { Mail } from "./mailer";
import { compose } from "./messages";

/**
 * Reminders by email (object/mail/outbox.ts): one mail per reminder that fires, and the optional daily digest.
 * Each carries the one-click "stop these emails" link twice: in the body, and in the RFC 8058 headers, with which
 * a mail client offers "unsubscribe" and POSTs to the link itself (no sign-in: the link is signed).
 */

/** What a reminder mail shows of a task: its title, and its due value when it has one. */
export interface MailedTask {
  title: string;
  due?: string;
}

const STOP = "Stop these emails";

function withUnsubscribe(mail: Mail, unsubscribeUrl: string): Mail {
  return {
    ...mail,
    headers: {
      "List-Unsubscribe": `<${unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

const line = (task: MailedTask) => (task.due ? `${task.title} (due ${task.due})` : task.title);

export const reminderMail = (email: string, task: MailedTask, unsubscribeUrl: string) =>
  withUnsubscribe(
    compose(
      email,
      `Reminder: ${task.title.slice(0, 120)}`,
      [
        `Reminder for your Todo account ${email}: ${line(task)}.`,
        `You get this because reminders by email are on. If this was not you, or you want no more of them, use the link below: it turns them off at once, without signing in.`,
      ],
      { url: unsubscribeUrl, label: STOP },
    ),
    unsubscribeUrl,
  );

export const digestMail = (email: string, date: string, tasks: MailedTask[], more: number, unsubscribeUrl: string) =>
  withUnsubscribe(
    compose(
      email,
      `Due today and overdue: ${tasks.length + more} task${tasks.length + more === 1 ? "" : "s"}`,
      [
        `Your Todo account ${email}, ${date}: due today and overdue.`,
        ...tasks.map(line),
        ...(more > 0 ? [`…and ${more} more.`] : []),
        `You get this daily digest because it is on. If this was not you, or you want no more of these emails, use the link below: it turns them off at once, without signing in.`,
      ],
      { url: unsubscribeUrl, label: STOP },
    ),
    unsubscribeUrl,
  );
