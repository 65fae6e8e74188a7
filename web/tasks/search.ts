import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../api";
import type { Task } from "./api";
import { tasksApi } from "./api";
import { html } from "./html";
import { keep, notify } from "./store";

/**
 * The search field ("Search tasks"): the API's full-text search (every word the start of a word of the
 * title or notes, ignoring case and accents), as the person types. `found` gets the results, or null
 * when the field is cleared.
 */
export interface SearchResult {
  query: string;
  ids: string[];
  error?: string;
}

interface Props {
  found: (result: SearchResult | null) => void;
  failed: (error: unknown) => boolean;
}

const DEBOUNCE_MS = 400;

export function SearchField({ found, failed }: Props) {
  const [text, setText] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef("");

  async function run(query: string) {
    latest.current = query;
    if (!query.trim()) return found(null);
    try {
      const page = await tasksApi.tasks({ q: query });
      if (latest.current !== query) return;
      // Found tasks are the server's current copies: the page's own copy takes them (a task made
      // elsewhere since the last sync is shown at once).
      for (const task of page.data) keep(task);
      notify();
      found({ query, ids: page.data.map((t: Task) => t.id) });
    } catch (e) {
      if (!failed(e) && latest.current === query)
        found({ query, ids: [], error: e instanceof ApiError ? e.detail : "The search failed. Try again." });
    }
  }

  const schedule = (query: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void run(query), DEBOUNCE_MS);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  return html`
    <form role="search" class="search" novalidate onSubmit=${(e: Event) => {
      e.preventDefault();
      clearTimeout(timer.current);
      void run(text);
    }}>
      <label for="search-tasks" class="visually-hidden">Search tasks</label>
      <input id="search-tasks" type="search" placeholder="Search tasks" maxlength="200" autocomplete="off" value=${text}
        onInput=${(e: Event) => {
          const value = (e.target as HTMLInputElement).value;
          setText(value);
          schedule(value);
        }}
        onKeyDown=${(e: KeyboardEvent) => {
          if (e.key !== "Escape" || !text) return;
          setText("");
          clearTimeout(timer.current);
          void run("");
        }} />
      <button type="submit" class="button button--secondary button--small">Search</button>
    </form>
  `;
}
