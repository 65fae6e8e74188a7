import { useState } from "preact/hooks";
import { ApiError } from "../api";
import { announce } from "../dom";
import { tasksApi } from "./api";
import { browserTimeZone, timeZones } from "./dates";
import { html } from "./html";
import { zoneName } from "../zone-name";

/**
 * The account's time zone (PATCH /account): Today, Overdue and due times follow it. Shown and settable
 * here; on the first visit from a browser in another zone, that zone is offered once.
 */
interface Props {
  accountId: string;
  timeZone: string;
  changed: (timeZone: string) => void;
  failed: (error: unknown) => boolean;
}

const OFFERED = "todo.timeZoneOffered";
const offeredKey = (accountId: string) => `${OFFERED}.${accountId}`;
function wasOffered(accountId: string): boolean {
  try {
    return localStorage.getItem(offeredKey(accountId)) !== null;
  } catch {
    return false;
  }
}
function rememberOffer(accountId: string): void {
  try {
    localStorage.setItem(offeredKey(accountId), "1");
  } catch {
    // Offered again next time: harmless.
  }
}

async function save(zone: string, props: Props): Promise<string | null> {
  try {
    const account = await tasksApi.setTimeZone(zone);
    props.changed(account.timeZone);
    announce(`Time zone set to ${zoneName(account.timeZone)}.`);
    return null;
  } catch (e) {
    return props.failed(e) ? null : e instanceof ApiError ? e.detail : "Could not change the time zone.";
  }
}

/** The offer of the browser's zone, once per account and browser. */
export function TimeZoneOffer(props: Props) {
  const browser = browserTimeZone();
  const [hidden, setHidden] = useState(() => !browser || browser === props.timeZone || wasOffered(props.accountId));
  const [error, setError] = useState<string | null>(null);
  if (hidden) return null;
  const done = () => {
    rememberOffer(props.accountId);
    setHidden(true);
  };
  return html`
    <div class="alert alert--info tz-offer" role="region" aria-label="Time zone">
      <p>Your browser is in <strong>${zoneName(browser)}</strong>; your account uses <strong>${zoneName(props.timeZone)}</strong>. Today, Overdue and due times follow the account's time zone.</p>
      ${error && html`<p class="field-error" role="alert">${error}</p>`}
      <div class="tz-offer__actions">
        <button type="button" class="button button--small" onClick=${async () => {
          const problem = await save(browser, props);
          if (problem) setError(problem);
          else done();
        }}>Use ${zoneName(browser)}</button>
        <button type="button" class="button button--secondary button--small" onClick=${done}>Keep ${zoneName(props.timeZone)}</button>
      </div>
    </div>
  `;
}

/** "Time zone: America/New York" with a Change button that opens a picker. */
export function TimeZoneSetting(props: Props) {
  const [editing, setEditing] = useState(false);
  const [zone, setZone] = useState(props.timeZone);
  const [error, setError] = useState<string | null>(null);
  const focus = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);
  const open = () => {
    setZone(props.timeZone);
    setEditing(true);
    focus("tz-select");
  };
  const close = () => {
    setEditing(false);
    setError(null);
    focus("tz-change");
  };
  if (!editing)
    return html`
      <p class="tz-setting">
        <span>Time zone: <strong>${zoneName(props.timeZone)}</strong></span>
        <button type="button" id="tz-change" class="link-button" aria-label="Change time zone"
          onClick=${open}>Change</button>
      </p>
    `;
  return html`
    <form class="tz-setting tz-setting--editing" novalidate onSubmit=${async (e: Event) => {
      e.preventDefault();
      const problem = await save(zone, props);
      setError(problem);
      if (!problem) close();
    }}>
      <label for="tz-select">Time zone</label>
      <select id="tz-select" value=${zone} onChange=${(e: Event) => setZone((e.target as HTMLSelectElement).value)}
        aria-describedby=${error ? "tz-error" : undefined}>
        ${timeZones(props.timeZone).map((z) => html`<option value=${z}>${zoneName(z)}</option>`)}
      </select>
      <button type="submit" class="button button--small">Save time zone</button>
      <button type="button" class="button button--secondary button--small" onClick=${close}>Cancel</button>
      ${error && html`<p id="tz-error" class="field-error" role="alert">${error}</p>`}
    </form>
  `;
}
