import { api, type PageWebhook } from "./api";
import { announce, byId, h, timeElement } from "./dom";
import { session } from "./session";

/** The "Calendar feed and webhooks" section: the feed's address (made, rotated, turned off) and the webhooks. */

type OnError = (error: unknown) => void;

function showFeed(enabled: boolean, createdAt?: string): void {
  byId("feed-status").replaceChildren(
    ...(enabled && createdAt ? ["The feed is on since ", timeElement(createdAt), "."] : ["The feed is off."]),
  );
  byId("feed-create").textContent = enabled ? "Make a new address" : "Create address";
  byId("feed-off").hidden = !enabled;
}

export async function refreshFeed(onError: OnError): Promise<void> {
  const token = session.get();
  if (!token) return;
  try {
    const feed = await api.getFeed(token);
    showFeed(feed.enabled, feed.createdAt);
  } catch (error) {
    onError(error);
  }
}

export function wireFeed(onError: OnError): void {
  byId("feed-create").addEventListener("click", async () => {
    const token = session.get();
    if (!token) return;
    try {
      const made = await api.rotateFeed(token);
      byId<HTMLInputElement>("feed-url").value = made.url;
      byId<HTMLAnchorElement>("feed-webcal").href = made.webcalUrl;
      byId("feed-new").hidden = false;
      await refreshFeed(onError);
      announce("A new feed address is ready. Any earlier address no longer works.");
    } catch (error) {
      onError(error);
    }
  });
  byId("feed-off").addEventListener("click", async () => {
    const token = session.get();
    if (!token) return;
    try {
      await api.deleteFeed(token);
      byId("feed-new").hidden = true;
      await refreshFeed(onError);
      announce("The calendar feed is off.");
    } catch (error) {
      onError(error);
    }
  });
}

function failureText(webhook: PageWebhook): string {
  const last = webhook.recentFailures?.[0];
  if (!last) return "No recent failures";
  return `${webhook.recentFailures!.length} recent failures; last: ${last.status ? `HTTP ${last.status}` : last.error}`;
}

function webhookItem(webhook: PageWebhook, act: (w: PageWebhook, action: "toggle" | "delete") => void): HTMLLIElement {
  const toggle = h(
    "button",
    { type: "button", class: "button button--secondary" },
    webhook.enabled ? "Disable" : "Enable",
  );
  const remove = h("button", { type: "button", class: "button button--danger-outline" }, "Delete");
  for (const button of [toggle, remove]) button.append(h("span", { class: "visually-hidden" }, ` ${webhook.url}`));
  toggle.addEventListener("click", () => act(webhook, "toggle"));
  remove.addEventListener("click", () => act(webhook, "delete"));
  return h(
    "li",
    { class: "key" },
    h("div", { class: "key__head" }, h("h4", { class: "key__name" }, webhook.description ?? webhook.url)),
    h("p", {}, h("code", {}, webhook.url)),
    h("p", {}, webhook.enabled ? "Enabled" : `Disabled. ${webhook.disabledReason ?? ""}`),
    h("p", { class: "hint" }, failureText(webhook)),
    toggle,
    " ",
    remove,
  );
}

/** Webhooks are a Max feature: without it the list is not asked for (it would be 403). */
export async function refreshWebhooks(max: boolean, onError: OnError): Promise<void> {
  const token = session.get();
  if (!token) return;
  if (!max) {
    byId("webhook-list").replaceChildren();
    byId("webhooks-empty").hidden = false;
    byId("webhooks-count").textContent = "";
    return;
  }
  const act = async (webhook: PageWebhook, action: "toggle" | "delete") => {
    try {
      if (action === "delete") await api.deleteWebhook(token, webhook.id);
      else await api.setWebhookEnabled(token, webhook.id, !webhook.enabled);
      await refreshWebhooks(true, onError);
      byId("webhooks-title").focus();
      announce(action === "delete" ? "The webhook is deleted." : "The webhook is changed.");
    } catch (error) {
      onError(error);
    }
  };
  try {
    const webhooks = await api.listWebhooks(token);
    byId("webhook-list").replaceChildren(...webhooks.map((w) => webhookItem(w, (x, a) => void act(x, a))));
    byId("webhooks-empty").hidden = webhooks.length > 0;
    byId("webhooks-count").textContent = webhooks.length === 1 ? "1 webhook" : `${webhooks.length} webhooks`;
  } catch (error) {
    onError(error);
  }
}
