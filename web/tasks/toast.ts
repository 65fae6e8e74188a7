import { useEffect } from "preact/hooks";
import { html } from "./html";

/** A short message at the bottom of the screen, with at most one action (Undo, Edit next). Polite: it never takes focus. */
export interface ToastMessage {
  id: number;
  text: string;
  action?: { label: string; run: () => void };
  /** How long it stays, in milliseconds. */
  ttl: number;
}

export function Toast({ toast, dismiss }: { toast: ToastMessage | null; dismiss: () => void }) {
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(dismiss, toast.ttl);
    return () => clearTimeout(timer);
  }, [toast?.id]);
  return html`
    <div class="toast-region" role="status" aria-live="polite">
      ${
        toast &&
        html`<div class="toast">
        <span class="toast__text">${toast.text}</span>
        ${
          toast.action &&
          html`<button type="button" class="button button--small toast__action" onClick=${() => {
            toast.action!.run();
            dismiss();
          }}>${toast.action.label}</button>`
        }
        <button type="button" class="link-button toast__close" aria-label="Dismiss message" onClick=${dismiss}>×</button>
      </div>`
      }
    </div>
  `;
}
