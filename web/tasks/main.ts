import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { type Account, ApiError } from "../api";
import { session } from "../session";
import { tasksApi } from "./api";
import { Board } from "./board";
import { LoadFailed, NeedsMax, SignedOut } from "./gate";
import { html } from "./html";
import { start, store, subscribe } from "./store";

/**
 * /tasks: the signed-in person's tasks, on the page's own session routes (/account/tasks, /account/lists).
 * Signed out it leads to sign-in; without Max it says what Max gives and where to get it.
 */

type Phase =
  | { name: "loading" }
  | { name: "signed-out"; message: string | null }
  | { name: "needs-max"; account: Account; contact: string | null }
  | { name: "ready"; account: Account }
  | { name: "failed"; message: string };

const ENDED = "Your session has ended. Sign in again to see your tasks.";

function App() {
  const [phase, setPhase] = useState<Phase>({ name: "loading" });
  const [, setVersion] = useState(0);
  useEffect(() => subscribe(() => setVersion((v) => v + 1)), []);

  /** A 401 anywhere: the session ended (signed out elsewhere, expired); what the page held is not sent anywhere. */
  const failed = (error: unknown) => {
    if (!(error instanceof ApiError) || error.status !== 401) return false;
    session.clear();
    setPhase({ name: "signed-out", message: ENDED });
    return true;
  };

  useEffect(() => {
    void (async () => {
      if (!session.get()) return setPhase({ name: "signed-out", message: null });
      try {
        const account = await tasksApi.account();
        if (!account.membership.active) {
          const contact = await tasksApi.contact().catch(() => undefined);
          return setPhase({ name: "needs-max", account, contact: contact ?? null });
        }
        await start();
        setPhase({ name: "ready", account });
      } catch (error) {
        if (!failed(error)) setPhase({ name: "failed", message: error instanceof ApiError ? error.detail : "" });
      }
    })();
  }, []);

  useEffect(() => {
    if (store.ended && phase.name === "ready") failed(new ApiError(401, "unauthorized", store.ended));
  });

  useEffect(() => {
    document.title = phase.name === "ready" ? "Tasks · Todo & Calendars" : "Your tasks · Todo & Calendars";
    if (phase.name !== "loading" && phase.name !== "ready") document.getElementById("gate-title")?.focus();
  }, [phase.name]);

  switch (phase.name) {
    case "loading":
      return html`<p class="loading">Loading your tasks…</p>`;
    case "signed-out":
      return html`<${SignedOut} message=${phase.message} />`;
    case "needs-max":
      return html`<${NeedsMax} contact=${phase.contact} plan=${phase.account.membership.plan} expiresAt=${phase.account.membership.expiresAt} />`;
    case "failed":
      return html`<${LoadFailed} message=${phase.message} />`;
    case "ready":
      return html`<${Board} accountId=${phase.account.id} timeZone=${phase.account.timeZone} failed=${failed}
        setTimeZone=${(timeZone: string) => setPhase({ name: "ready", account: { ...phase.account, timeZone } })} />`;
  }
}

const main = document.getElementById("main")!;
main.replaceChildren();
render(html`<${App} />`, main);
