import { useEffect, useRef } from "preact/hooks";
import { html } from "./html";

/**
 * A short message at the bottom of the screen, with at most one action (Undo, Edit next, Show). A message
 * whose action undoes something (`focus`) takes focus, so Undo is one key away and not dozens of Tabs; the
 * others stay polite. The time runs only while neither focus nor the pointer is on the message, so a
 * person reading it or about to press its action never loses it.
 */
export interface ToastMessage {
  id: number;
  text: string;
  action?: { label: string; run: () => void };
  /** How long it stays, in milliseconds (paused while focused or hovered). */
  ttl: number;
  /** Move focus to the action when the message appears. */
  focus?: boolean;
  /** Told when the clock stops and starts again (the delete behind an Undo waits with it). */
  paused?: (paused: boolean) => void;
  /** Where focus goes when the message leaves while it had focus. */
  focusAfter?: () => void;
}

export function Toast({ toast, dismiss }: { toast: ToastMessage | null; dismiss: () => void }) {
  const clock = useRef({ timer: 0, left: 0, started: 0, paused: false });
  const box = useRef<HTMLDivElement>(null);

  const run = () => {
    const c = clock.current;
    c.started = Date.now();
    c.timer = window.setTimeout(() => leave(), c.left);
  };
  const leave = (run?: () => void) => {
    const hadFocus = !!box.current?.contains(document.activeElement);
    clearTimeout(clock.current.timer);
    if (clock.current.paused) toast?.paused?.(false);
    clock.current.paused = false;
    dismiss();
    if (run) run();
    else if (hadFocus) toast?.focusAfter?.();
  };
  const pause = (paused: boolean) => {
    const c = clock.current;
    if (!toast || c.paused === paused) return;
    c.paused = paused;
    if (paused) {
      clearTimeout(c.timer);
      c.left = Math.max(0, c.left - (Date.now() - c.started));
    } else run();
    toast.paused?.(paused);
  };
  // Paused while the pointer is over it or focus is inside; both must leave for the clock to run again.
  const hold = () => {
    const el = box.current;
    pause(!!el && (el.matches(":hover") || el.contains(document.activeElement)));
  };

  useEffect(() => {
    if (!toast) return;
    clock.current = { timer: 0, left: toast.ttl, started: 0, paused: false };
    run();
    if (toast.focus) box.current?.querySelector<HTMLElement>(".toast__action")?.focus();
    return () => {
      clearTimeout(clock.current.timer);
      // Replaced while held: whatever waited with it runs on its own clock again.
      if (clock.current.paused) toast.paused?.(false);
    };
  }, [toast?.id]);

  return html`
    <div class="toast-region" role="status" aria-live="polite">
      ${
        toast &&
        html`<div class="toast" ref=${box} onMouseEnter=${hold} onMouseLeave=${() => setTimeout(hold, 0)}
          onFocusIn=${hold} onFocusOut=${() => setTimeout(hold, 0)}
          onKeyDown=${(event: KeyboardEvent) => event.key === "Escape" && leave()}>
        <span class="toast__text">${toast.text}</span>
        ${
          toast.action &&
          html`<button type="button" class="button button--small toast__action" onClick=${() => leave(toast.action!.run)}>${toast.action.label}</button>`
        }
        <button type="button" class="link-button toast__close" aria-label="Dismiss message" onClick=${() => leave()}>×</button>
      </div>`
      }
    </div>
  `;
}
