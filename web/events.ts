import { api } from "./api";
import { announce, byId, timeElement } from "./dom";
import { session } from "./session";

/** The "Calendar feed and webhooks" section: the feed's address (made, rotated, turned off); webhooks.ts: the webhooks. */

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
