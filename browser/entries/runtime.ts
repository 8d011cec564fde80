/**
 * The engine's runtime for this page (browser/runtime/client.ts), one module
 * of its own so that the table and the score pad share one worker, and so
 * that the tests can serve a stand-in in its place (tests/table/stub-runtime.js).
 */

import { createRuntime } from "../runtime/client";

export type { Runtime, Status } from "../runtime/client";

export const runtime = createRuntime(import.meta.url);
