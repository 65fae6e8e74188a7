/**
 * The one Node.js API the Worker's own code uses (nodejs_compat provides it at run time): per-request
 * context for src/oauth/provider-reports.ts. Declared here rather than loading all of @types/node, whose
 * globals (Buffer, process) do not exist in a Worker without nodejs_compat's polyfills.
 */
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, callback: () => R): R;
    getStore(): T | undefined;
  }
}
