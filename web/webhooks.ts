import { ApiError, api, type PageWebhook, type WebhookSecret } from "./api";
import { announce, byId, h } from "./dom";
import { clearErrors, showErrors } from "./forms";
import { session } from "./session";
import { confirmDeleteWebhook, type WebhookAction, webhookItem, webhookName } from "./webhook-item";

/**
 * The webhooks of the "Calendar feed and webhooks" section: add one (URL, description), see each one's
 * recent deliveries and retries, disable or enable, rotate its secret, delete it (after a confirmation
 * naming it). A new secret is shown once, in a panel like a new API key's.
 */

type OnError = (error: unknown) => void;

/** Shows a secret just made (created or rotated) until "I have saved the secret" removes it from the DOM. */
function showSecret(made: WebhookSecret, rotated: boolean): void {
  const slot = byId("webhook-secret-slot");
  const input = h("input", {
    id: "webhook-secret-value",
    class: "mono",
    type: "text",
    readonly: "",
    autocomplete: "off",
    spellcheck: "false",
  });
  input.value = made.secret;
  const done = h("button", { type: "button", class: "button", id: "webhook-secret-done" }, "I have saved the secret");
  done.addEventListener("click", () => {
    slot.replaceChildren();
    slot.hidden = true;
    byId("webhooks-title").focus();
  });
  const title = h(
    "h4",
    { id: "webhook-secret-title", tabindex: "-1" },
    `${rotated ? "New signing secret" : "Signing secret"} for “${webhookName(made)}”`,
  );
  slot.replaceChildren(
    h(
      "section",
      { class: "new-key", "aria-labelledby": "webhook-secret-title" },
      title,
      h(
        "p",
        { class: "new-key__warning" },
        h("strong", {}, "Copy it now: you will not see this secret again."),
        rotated
          ? " The previous secret keeps signing deliveries for 24 hours, so your receiver can switch in the meantime."
          : " Your receiver verifies each delivery's webhook-signature with it (Standard Webhooks).",
      ),
      h("label", { for: "webhook-secret-value" }, "Signing secret"),
      h(
        "div",
        { class: "copy-row" },
        input,
        h("button", { type: "button", class: "button", "data-copy": "webhook-secret-value" }, "Copy secret"),
      ),
      done,
    ),
  );
  slot.hidden = false;
  title.focus();
}

async function act(webhook: PageWebhook, action: WebhookAction, onError: OnError): Promise<void> {
  const token = session.get();
  if (!token) return;
  if (action === "delete" && !(await confirmDeleteWebhook(webhook))) return;
  try {
    if (action === "delete") await api.deleteWebhook(token, webhook.id);
    if (action === "toggle") await api.setWebhookEnabled(token, webhook.id, !webhook.enabled);
    const rotated = action === "rotate" ? await api.rotateWebhookSecret(token, webhook.id) : undefined;
    await refreshWebhooks(true, onError);
    if (rotated) return showSecret(rotated, true);
    byId("webhooks-title").focus();
    const name = webhookName(webhook);
    announce(
      action === "delete"
        ? `Webhook “${name}” deleted.`
        : `Webhook “${name}” ${webhook.enabled ? "disabled" : "enabled"}.`,
    );
  } catch (error) {
    onError(error);
  }
}

/** Webhooks are a Max feature: without it the list is not asked for (it would be 403) and the form is hidden. */
export async function refreshWebhooks(max: boolean, onError: OnError): Promise<void> {
  const token = session.get();
  if (!token) return;
  byId("webhook-form").hidden = !max;
  byId("webhooks-max").hidden = max;
  if (!max) {
    byId("webhook-list").replaceChildren();
    byId("webhooks-empty").hidden = false;
    byId("webhooks-count").textContent = "";
    return;
  }
  try {
    const webhooks = await api.listWebhooks(token);
    byId("webhook-list").replaceChildren(...webhooks.map((w) => webhookItem(w, (x, a) => void act(x, a, onError))));
    byId("webhooks-empty").hidden = webhooks.length > 0;
    byId("webhooks-count").textContent = webhooks.length === 1 ? "1 webhook" : `${webhooks.length} webhooks`;
  } catch (error) {
    onError(error);
  }
}

export function wireWebhooks(onError: OnError): void {
  const form = byId<HTMLFormElement>("webhook-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = session.get();
    if (!token) return;
    clearErrors(form);
    const url = byId<HTMLInputElement>("webhook-url").value.trim();
    const description = byId<HTMLInputElement>("webhook-description").value.trim();
    if (!url) return showErrors(form, { url: "Enter the URL that receives the events." });
    try {
      const made = await api.createWebhook(token, { url, ...(description ? { description } : {}) });
      form.reset();
      await refreshWebhooks(true, onError);
      showSecret(made, false);
    } catch (error) {
      // The service words each refusal as a whole sentence ("The URL must use https."): shown as it is.
      if (error instanceof ApiError && error.status < 500 && error.status !== 401) {
        const fields = Object.fromEntries(error.errors.filter((e) => e.path).map((e) => [e.path, e.message]));
        showErrors(form, fields, Object.keys(fields).length ? undefined : error.detail);
      } else onError(error);
    }
  });
}
