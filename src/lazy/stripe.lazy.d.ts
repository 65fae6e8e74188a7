// src/lazy/stripe.lazy.js: the `stripe` SDK, for the billing routes (src/http/stripe.ts).
export { default } from "stripe";
