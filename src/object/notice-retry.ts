/**
 * The retry rule a reminder's notices share, reminder mail (mail/outbox.ts) and browser pushes (push/outbox.ts):
 * a failed send is tried again after 1 min, 10 min and 1 h, then given up; while one is out its row is leased
 * (`dueAt` moved this far ahead), so no other alarm sends it too. Webhooks have their own, longer rule (delivery.ts).
 */
export const NOTICE_RETRY_DELAYS_MS = [60_000, 600_000, 3_600_000];
export const NOTICE_LEASE_MS = 60_000;
