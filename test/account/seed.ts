import { call, createTask, json, maxUser } from "../helpers";
import { deliver, event, subscription } from "../billing/support";
import { connect } from "../oauth/support";

/**
 * An account with a row in every table: Max, two sessions, a live and a revoked key, open,
 * completed and deleted tasks (indexed for search), a live and a deleted list, an idempotency record,
 * an app connected over OAuth, and a Stripe subscription with a failed payment (signed webhook events).
 */
export async function seededAccount(label: string) {
  const user = await maxUser(label);
  const secondSession = (
    await json(await call("/auth/login", { body: { email: user.email, password: user.password } }))
  ).token as string;
  const revoked = await json(await call("/account/api-keys", { token: user.session, body: { name: "old laptop" } }));
  await call(`/account/api-keys/${revoked.id}`, { method: "DELETE", token: user.session });
  const open = await createTask(user.key, {
    title: `${label} open`,
    notes: "some notes",
    due: "2026-12-24",
    listId: "home",
  });
  const list = await json(await call("/api/v1/lists", { token: user.key, body: { name: `${label} list` } }));
  const droppedList = await json(await call("/api/v1/lists", { token: user.key, body: { name: `${label} old list` } }));
  await call(`/api/v1/lists/${droppedList.id}`, { method: "DELETE", token: user.key });
  const done = await createTask(user.key, { title: `${label} done`, listId: list.id });
  await call(`/api/v1/tasks/${done.id}`, { method: "PATCH", token: user.key, body: { completed: true } });
  const gone = await createTask(user.key, { title: `${label} deleted` });
  await call(`/api/v1/tasks/${gone.id}`, { method: "DELETE", token: user.key });
  const replayed = await call("/api/v1/tasks", {
    token: user.key,
    body: { title: `${label} idempotent` },
    headers: { "Idempotency-Key": `${label}-1` },
  });
  const idempotent = await json(replayed);
  const connection = await connect(user, { name: `${label} agent` });
  const customer = `cus_seed_${user.accountId.replaceAll("-", "")}`;
  await deliver(event("customer.subscription.updated", subscription({ accountId: user.accountId, customer })));
  await deliver(event("invoice.payment_failed", { id: `in_${label}`, object: "invoice", customer }));
  return {
    ...user,
    connection,
    secondSession,
    revokedKeyId: revoked.id as string,
    taskIds: { open: open.id, done: done.id, gone: gone.id, idempotent: idempotent.id },
    listIds: { live: list.id as string, home: "home", gone: droppedList.id as string },
  };
}
