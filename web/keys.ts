import type { ApiKey } from "./api";
import { byId, confirmInDialog, formatDate, h, timeElement } from "./dom";

/** Rendering of the key list, the one-time key panel and the revoke confirmation. */

const isExpired = (key: ApiKey) => key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now();
const isActive = (key: ApiKey) => key.revokedAt === null && !isExpired(key);

function meta(term: string, value: Node | string): HTMLDivElement {
  return h("div", {}, h("dt", {}, term), h("dd", {}, value));
}

function status(key: ApiKey): Node | string {
  if (key.revokedAt) return h("span", {}, "Revoked ", timeElement(key.revokedAt));
  if (key.expiresAt && isExpired(key)) return h("span", {}, "Expired ", timeElement(key.expiresAt));
  if (key.expiresAt) return h("span", {}, "Active until ", timeElement(key.expiresAt, formatDate));
  return "Active";
}

function keyItem(key: ApiKey, onRevoke: (key: ApiKey) => void): HTMLLIElement {
  const item = h(
    "li",
    { class: isActive(key) ? "key" : "key key--inactive", "data-key-id": key.id },
    h(
      "div",
      { class: "key__head" },
      h("h4", { class: "key__name" }, key.name),
      h("code", { class: "key__hint" }, key.hint),
    ),
    h(
      "dl",
      { class: "key__meta" },
      meta("Created", timeElement(key.createdAt)),
      meta("Last used", key.lastUsedAt ? timeElement(key.lastUsedAt) : "Never"),
      meta("Status", status(key)),
    ),
  );
  if (isActive(key)) {
    // The visible word stays in the accessible name; the hidden part says which key.
    const button = h(
      "button",
      { type: "button", class: "button button--danger-outline" },
      "Revoke",
      h("span", { class: "visually-hidden" }, ` key ${key.name}`),
    );
    button.addEventListener("click", () => onRevoke(key));
    item.append(button);
  }
  return item;
}

export function renderKeys(keys: ApiKey[], onRevoke: (key: ApiKey) => void): void {
  const active = keys.filter(isActive);
  const inactive = keys.filter((key) => !isActive(key));
  byId("key-list").replaceChildren(...active.map((key) => keyItem(key, onRevoke)));
  byId("keys-empty").hidden = active.length > 0;
  byId("keys-count").textContent = active.length === 1 ? "1 active key" : `${active.length} active keys`;
  const old = byId<HTMLDetailsElement>("inactive-keys");
  old.hidden = inactive.length === 0;
  byId("inactive-count").textContent = String(inactive.length);
  byId("inactive-key-list").replaceChildren(...inactive.map((key) => keyItem(key, onRevoke)));
}

/** Shows a freshly created key. Dismissing it removes the secret from the DOM. */
export function showNewKey(created: ApiKey & { key: string }, onDone: () => void): void {
  const slot = byId("new-key-slot");
  const input = h("input", {
    id: "new-key-value",
    class: "mono",
    type: "text",
    readonly: "",
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": "new-key-warning",
  });
  input.value = created.key;
  input.addEventListener("focus", () => input.select());
  const done = h("button", { type: "button", class: "button", id: "new-key-done" }, "I have saved my key");
  done.addEventListener("click", onDone);
  const title = h("h4", { id: "new-key-title", tabindex: "-1" }, `Your new key “${created.name}”`);
  slot.replaceChildren(
    h(
      "section",
      { class: "new-key", "aria-labelledby": "new-key-title" },
      title,
      h(
        "p",
        { class: "new-key__warning", id: "new-key-warning" },
        h("strong", {}, "Copy it now: you will not see this key again."),
        " Only a hash is stored. If you lose it, revoke it and create a new one.",
      ),
      h("label", { for: "new-key-value" }, "API key"),
      h(
        "div",
        { class: "copy-row" },
        input,
        h("button", { type: "button", class: "button", "data-copy": "new-key-value" }, "Copy key"),
      ),
      h("p", { class: "hint" }, "The configuration snippets below include this key until you close this panel."),
      done,
    ),
  );
  slot.hidden = false;
  title.focus();
}

export function hideNewKey(): void {
  const slot = byId("new-key-slot");
  slot.replaceChildren();
  slot.hidden = true;
}

/** Asks before revoking, in a modal `<dialog>`; Cancel has focus first. Resolves true on confirm. */
export function confirmRevoke(key: ApiKey): Promise<boolean> {
  byId("revoke-name").textContent = key.name;
  byId("revoke-hint").textContent = key.hint;
  return confirmInDialog("revoke-dialog", "revoke-confirm", "revoke-cancel");
}
