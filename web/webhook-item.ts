import type { Delivery, PageWebhook } from "./api";
import { byId, confirmInDialog, h, timeElement } from "./dom";

/** One webhook on the account page: its address, state, recent deliveries, retries, and its buttons. */

export type WebhookAction = "toggle" | "rotate" | "delete";

/** The name the page calls a webhook by: its description, else its URL. */
export const webhookName = (webhook: { description?: string; url: string }) => webhook.description || webhook.url;

const outcome = (d: Delivery) => (d.status !== undefined ? `HTTP ${d.status}` : (d.error ?? "no answer"));
const ok = (d: Delivery) => d.status !== undefined && d.status >= 200 && d.status < 300;

function deliveries(webhook: PageWebhook): HTMLElement {
  if (webhook.recentDeliveries.length === 0 && webhook.pending.length === 0)
    return h("p", { class: "hint" }, "No deliveries yet.");
  const rows = webhook.recentDeliveries.map((d) =>
    h(
      "tr",
      {},
      h("td", {}, timeElement(d.at)),
      h("td", {}, d.type),
      h("td", {}, String(d.attempt)),
      h("td", { class: ok(d) ? "delivery--ok" : "delivery--failed" }, ok(d) ? `Delivered (${outcome(d)})` : outcome(d)),
    ),
  );
  const pending = webhook.pending.map((p) =>
    h(
      "li",
      {},
      `${p.type}: ${p.attempts === 0 ? "first attempt" : `retry ${p.attempts}`} at `,
      timeElement(p.nextAttemptAt),
    ),
  );
  return h(
    "div",
    { class: "webhook__deliveries" },
    rows.length > 0 &&
      h(
        "table",
        { class: "deliveries" },
        h("caption", {}, "Recent deliveries, newest first"),
        h(
          "thead",
          {},
          h("tr", {}, ...["Time", "Event", "Attempt", "Result"].map((label) => h("th", { scope: "col" }, label))),
        ),
        h("tbody", {}, ...rows),
      ),
    pending.length > 0 && h("p", {}, h("strong", {}, "Waiting to be sent:")),
    pending.length > 0 && h("ul", { class: "webhook__pending" }, ...pending),
  );
}

export function webhookItem(webhook: PageWebhook, act: (w: PageWebhook, action: WebhookAction) => void): HTMLLIElement {
  const name = webhookName(webhook);
  // The visible word stays first in the accessible name; the hidden part says which webhook.
  const button = (label: string, action: WebhookAction, style: string) => {
    const element = h(
      "button",
      { type: "button", class: `button ${style}`, "data-action": action },
      label,
      h("span", { class: "visually-hidden" }, ` webhook ${name}`),
    );
    element.addEventListener("click", () => act(webhook, action));
    return element;
  };
  return h(
    "li",
    { class: webhook.enabled ? "webhook" : "webhook webhook--disabled", "data-webhook-id": webhook.id },
    h("h4", { class: "webhook__name" }, name),
    h("p", { class: "webhook__url" }, h("code", {}, webhook.url)),
    h("p", {}, webhook.enabled ? "Enabled" : `Disabled. ${webhook.disabledReason ?? ""}`.trim()),
    webhook.previousSecretExpiresAt &&
      h(
        "p",
        { class: "hint" },
        "The previous secret still signs deliveries until ",
        timeElement(webhook.previousSecretExpiresAt),
        ".",
      ),
    deliveries(webhook),
    h(
      "div",
      { class: "webhook__actions" },
      button(webhook.enabled ? "Disable" : "Enable", "toggle", "button--secondary"),
      button("Rotate secret", "rotate", "button--secondary"),
      button("Delete", "delete", "button--danger-outline"),
    ),
  );
}

/** Asks before deleting, naming the webhook, in a modal `<dialog>`; Cancel has focus first. True on confirm. */
export function confirmDeleteWebhook(webhook: PageWebhook): Promise<boolean> {
  byId("webhook-delete-name").textContent = webhookName(webhook);
  byId("webhook-delete-url").textContent = webhook.url;
  return confirmInDialog("webhook-delete-dialog", "webhook-delete-confirm", "webhook-delete-cancel");
}
