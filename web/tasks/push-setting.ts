import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api";
import { announce } from "../dom";
import { html } from "./html";
import { deviceIsOn, publicKey, pushSupported, turnOff, turnOn } from "./push";

/**
 * "Notify me on this device": reminders as notifications on this browser (web/tasks/push.ts). Shown beside the time
 * zone only where it can work: a browser with service workers and push, on a deployment with VAPID keys.
 */

const BLOCKED =
  "Notifications are blocked for this site in this browser. To allow them, open the site's settings (the icon at the left of the address bar), set Notifications to Allow, then choose “Notify me on this device” again.";
const DISMISSED = "Notifications were not allowed. Choose “Notify me on this device” again to be asked again.";

type State = "checking" | "hidden" | "off" | "on";

export function PushSetting({ failed }: { failed: (error: unknown) => boolean }) {
  const [state, setState] = useState<State>("checking");
  const [key, setKey] = useState<Uint8Array<ArrayBuffer> | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!pushSupported()) return setState("hidden");
    void (async () => {
      try {
        const found = await publicKey();
        if (!found) return setState("hidden");
        setKey(found);
        setState((await deviceIsOn(found)) ? "on" : "off");
      } catch (error) {
        // Without the key or the list there is nothing to offer; a 401 shows the signed-out view.
        if (!failed(error)) setState("hidden");
      }
    })();
  }, []);

  if (state === "checking" || state === "hidden" || !key) return null;
  const on = state === "on";

  async function change() {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      if (on) {
        await turnOff();
        setState("off");
        announce("Reminders no longer appear as notifications on this device.");
      } else {
        const permission = await turnOn(key!);
        if (permission === "granted") {
          setState("on");
          announce("Reminders will appear as notifications on this device.");
        } else setProblem(permission === "denied" ? BLOCKED : DISMISSED);
      }
    } catch (error) {
      if (!failed(error))
        setProblem(
          error instanceof ApiError
            ? error.detail
            : `Could not ${on ? "stop" : "turn on"} notifications on this device${error instanceof Error && error.message ? `: ${error.message}` : "."}`,
        );
    } finally {
      setBusy(false);
    }
  }

  return html`
    <div class="push-setting">
      <p class="tz-setting">
        <span>Reminders on this device: <strong>${on ? "on" : "off"}</strong></span>
        <button type="button" id="push-toggle" class="link-button" aria-disabled=${busy ? "true" : undefined}
          aria-describedby=${problem ? "push-problem" : undefined} onClick=${change}>
          ${on ? "Stop notifications on this device" : "Notify me on this device"}</button>
      </p>
      ${problem && html`<p id="push-problem" class="field-error" role="alert">${problem}</p>`}
    </div>
  `;
}
