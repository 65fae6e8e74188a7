import { type Account, api } from "./api";
import { announce, busy, byId } from "./dom";
import { clearErrors } from "./forms";
import { session } from "./session";
import { zoneName } from "./zone-name";

/** The account's time zone, in which repeating tasks advance: a list of zones, and the browser's offered. */

export interface TimeZoneDeps {
  handleError: (error: unknown, form?: HTMLFormElement) => void;
  signedOut: (message: string) => void;
  /** The account as the server returned it after a change. */
  updated: (account: Account) => void;
}

const browserZone = (): string | undefined => Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;

/** Every zone this browser knows, plus the account's own (a browser may not list it) and UTC. */
function zones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([...known, current, "UTC"])].sort();
}

export function renderTimeZone(account: Account): void {
  const select = byId<HTMLSelectElement>("time-zone");
  select.replaceChildren(...zones(account.timeZone).map((zone) => new Option(zoneName(zone), zone)));
  select.value = account.timeZone;
  const offer = browserZone();
  const suggest = byId("time-zone-suggest");
  suggest.hidden = !offer || offer === account.timeZone;
  if (offer) {
    byId("browser-zone").textContent = zoneName(offer);
    byId("use-browser-zone").dataset.zone = offer;
  }
  byId("time-zone-status").hidden = true;
}

async function save(deps: TimeZoneDeps, timeZone: string): Promise<void> {
  const form = byId<HTMLFormElement>("time-zone-form");
  clearErrors(form);
  const token = session.get();
  if (!token) return deps.signedOut("Please sign in again.");
  try {
    await busy(form.querySelector<HTMLButtonElement>("button[type=submit]")!, "Saving…", async () => {
      const account = await api.updateAccount(token, { timeZone });
      deps.updated(account);
      renderTimeZone(account);
      const status = byId("time-zone-status");
      status.textContent = `Time zone saved: ${zoneName(account.timeZone)}. Repeating tasks advance in it from now on.`;
      status.hidden = false;
      announce(status.textContent);
    });
  } catch (error) {
    deps.handleError(error, form);
  }
}

export function wireTimeZone(deps: TimeZoneDeps): void {
  const form = byId<HTMLFormElement>("time-zone-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void save(deps, byId<HTMLSelectElement>("time-zone").value);
  });
  byId("use-browser-zone").addEventListener("click", (event) => {
    const zone = (event.currentTarget as HTMLElement).dataset.zone;
    if (zone) void save(deps, zone);
  });
}
