/**
 * Every page's script, before the reader's intent: the language menu, the
 * Nepali search counts, the 404 page's language, worked examples' step
 * control (its later diagrams' module, boards.js, on intent) and the
 * comparison's switch, the table's bootstrap (its code comes
 * on intent), the service worker; and, on a page that has them, the Puzzles
 * page's and the score pad's own modules. It owns what the page's modules
 * share (the tables' controllers, the engine's runtime once loaded), which
 * they import from it ("./site.js": the same module instance); tools and
 * tests import it too (`offline`, `controllerOf`).
 */

import { eachPage } from "../page/each";
import { runtimeModule, useRuntimeCode } from "../page/engine";
import { setupContent, useBoardsCode } from "../page/examples";
import { updateLanguageLinks } from "../page/language";
import { redirectNotFound } from "../page/notfound";
import { offline, startOffline } from "../page/offline";
import { watchSearchCounts } from "../page/searchdigits";
import { setupTables, startTables, tableSetUp } from "../table/bootstrap";
import { loadedTableCode, useTableCode } from "../table/loader";
import { controllerOf } from "../table/registry";

export { controllerOf, loadedTableCode, offline, runtimeModule, tableSetUp };

/** The page kinds with modules of their own, imported on the pages that have them. */
function pageKinds(): void {
  if (document.querySelector("[data-dhumbal-trainer], .dh-daily[data-dhumbal-daily]")) {
    import("./puzzles.js").then((m) => m.setup(), console.error);
  }
  if (document.querySelector("[data-dhumbal-scorepad]")) {
    import("./scorepad.js").then((m) => m.setup(), console.error);
  }
}

useTableCode(() => import("./table.js"));
useRuntimeCode(() => import("./runtime.js"));
useBoardsCode(() => import("./boards.js"));
redirectNotFound();
watchSearchCounts();
startTables();
eachPage(updateLanguageLinks);
eachPage(setupContent);
eachPage(setupTables);
eachPage(pageKinds);
startOffline(new URL("../../", import.meta.url).href);
