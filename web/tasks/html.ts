import htm from "htm";
import { h } from "preact";

/** Preact with htm: tagged templates instead of JSX, so the page needs no JSX build step. */
export const html = htm.bind(h);
