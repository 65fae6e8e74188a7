import { h, render } from "preact";
import { app, applyHostContext } from "./bridge";
import { createStore, isListing } from "./store";
import { View } from "./view";

/**
 * The tasks app inside an MCP host (ui://tasks/app.html): the list_tasks result the host hands over
 * is shown at once, then the view reads the listing itself (open tasks, with the lists to filter by).
 */
const root = document.getElementById("app")!;
const paint = () => render(h(View, { store }), root);
const store = createStore(paint);

// Handlers are set before connect, so the first tool result and host context are not missed.
app.ontoolresult = ({ structuredContent }) => {
  if (isListing(structuredContent)) store.show(structuredContent);
};
app.onhostcontextchanged = (context) => applyHostContext(context);

paint();
await app.connect();
applyHostContext(app.getHostContext());
await store.load();
