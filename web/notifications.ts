import { api, type Notifications } from "./api";
import { announce, byId } from "./dom";
import { session } from "./session";

/** "Reminders by email" in the Calendar feed and webhooks section (PUT /account/notifications). */

type OnError = (error: unknown) => void;

const REASONS = {
  mail_off: "This service sends no email (its operator has not set up mail), so reminders by email are off.",
  email_unverified: "Verify your email address first: reminders by email go only to a verified address.",
} as const;

const reminders = () => byId<HTMLInputElement>("mail-reminders-on");
const digest = () => byId<HTMLInputElement>("mail-digest-on");
const time = () => byId<HTMLInputElement>("mail-digest-time");

function show(choice: Notifications): void {
  reminders().checked = choice.emailReminders;
  digest().checked = choice.dailyDigest.enabled;
  if (choice.dailyDigest.time) time().value = choice.dailyDigest.time;
  const reason = byId("mail-reminders-reason");
  reason.hidden = !choice.unavailable;
  reason.textContent = choice.unavailable ? REASONS[choice.unavailable] : "";
  // Disabled with the reason beside it; what is on can still be turned off.
  const blocked = Boolean(choice.unavailable);
  reminders().disabled = blocked && !choice.emailReminders;
  digest().disabled = blocked && !choice.dailyDigest.enabled;
  time().disabled = blocked;
}

export async function refreshNotifications(onError: OnError): Promise<void> {
  const token = session.get();
  if (!token) return;
  try {
    show(await api.getNotifications(token));
  } catch (error) {
    onError(error);
  }
}

export function wireNotifications(onError: OnError): void {
  const save = async () => {
    const token = session.get();
    if (!token) return;
    try {
      const saved = await api.setNotifications(token, {
        emailReminders: reminders().checked,
        dailyDigest: { enabled: digest().checked, time: time().value || "08:00" },
      });
      show(saved);
      announce(
        saved.emailReminders || saved.dailyDigest.enabled ? "Reminder emails are on." : "Reminder emails are off.",
      );
    } catch (error) {
      await refreshNotifications(onError);
      onError(error);
    }
  };
  for (const input of [reminders(), digest(), time()]) input.addEventListener("change", save);
}
