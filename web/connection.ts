import { byId, copyText } from "./dom";
import { type Endpoints, PLACEHOLDER, snippets } from "./snippets";

/** The AI connection section: the endpoints and ready-to-paste snippets (their text: snippets.ts) on the page. */

/** Fills the endpoint fields and snippets; with a key, the snippets carry it, otherwise a placeholder. */
export function renderConnection(endpoints: Endpoints, key: string | null): void {
  byId<HTMLInputElement>("mcp-url").value = endpoints.mcp;
  byId<HTMLInputElement>("rest-url").value = endpoints.rest;
  for (const [id, text] of Object.entries(snippets(endpoints, key))) byId(id).textContent = text;
  byId("snippet-key-note").textContent = key
    ? "These snippets contain your new key. Copy what you need before you close the key panel above."
    : `Replace ${PLACEHOLDER} with your key. Keep the key in your client's settings or a secret store, never in a chat or prompt.`;
}

/** One listener for every button with `data-copy="<id of an input or code element>"`. */
export function wireCopyButtons(root: HTMLElement): void {
  root.addEventListener("click", (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>("button[data-copy]");
    if (!button?.dataset.copy) return;
    const source = byId(button.dataset.copy);
    const text = source instanceof HTMLInputElement ? source.value : (source.textContent ?? "");
    void copyText(text, source, button);
  });
}
