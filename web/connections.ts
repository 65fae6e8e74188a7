import { type Connection, api } from "./api";
import { announce, byId, h, timeElement } from "./dom";
import { session } from "./session";

/** The "Connected apps" list in the AI connection section: apps connected over OAuth, each with Revoke. */

function meta(term: string, value: Node | string): HTMLDivElement {
  return h("div", {}, h("dt", {}, term), h("dd", {}, value));
}

const ACCESS: Record<string, string> = { "tasks:read": "read", "tasks:write": "change" };
const accessOf = (scopes: string[]) =>
  scopes.includes("tasks:write") ? "Read and change tasks" : scopes.includes("tasks:read") ? "Read tasks" : "None";

function connectionItem(connection: Connection, onRevoke: (c: Connection) => void): HTMLLIElement {
  const button = h(
    "button",
    { type: "button", class: "button button--danger-outline" },
    "Revoke",
    h("span", { class: "visually-hidden" }, ` ${connection.clientName}`),
  );
  button.addEventListener("click", () => onRevoke(connection));
  return h(
    "li",
    { class: "key", "data-connection-id": connection.id },
    h(
      "div",
      { class: "key__head" },
      h("h4", { class: "key__name" }, connection.clientName),
      h(
        "code",
        { class: "key__hint", title: connection.scopes.map((s) => ACCESS[s] ?? s).join(", ") },
        connection.redirectHost,
      ),
    ),
    h(
      "dl",
      { class: "key__meta" },
      meta("Access", accessOf(connection.scopes)),
      meta("Connected", timeElement(connection.createdAt)),
      meta("Last used", connection.lastUsedAt ? timeElement(connection.lastUsedAt) : "Never"),
    ),
    button,
  );
}

export function renderConnections(connections: Connection[], onRevoke: (c: Connection) => void): void {
  byId("connection-list").replaceChildren(...connections.map((c) => connectionItem(c, onRevoke)));
  byId("connections-empty").hidden = connections.length > 0;
  byId("connections-count").textContent =
    connections.length === 1 ? "1 connected app" : `${connections.length} connected apps`;
}

export async function refreshConnections(handleError: (error: unknown) => void): Promise<void> {
  const token = session.get();
  if (!token) return;
  const revoke = async (connection: Connection) => {
    try {
      await api.revokeConnection(token, connection.id);
      await refreshConnections(handleError);
      byId("connections-title").focus();
      announce(`${connection.clientName} is disconnected. Its access ends immediately.`);
    } catch (error) {
      handleError(error);
    }
  };
  try {
    renderConnections(await api.listConnections(token), (c) => void revoke(c));
  } catch (error) {
    handleError(error);
  }
}
