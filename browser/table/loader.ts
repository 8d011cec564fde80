/**
 * The table's code and styles, loaded on the reader's intent (never before):
 * the table module (entries/table.ts, with the engine's runtime client) and
 * its style sheet, side by side; the table is mounted once both are here (a
 * style sheet that cannot load leaves the table playable, unstyled parts
 * aside). The style sheet goes at the end of <body>, where Material's instant
 * navigation leaves it (it replaces <head>'s tags with the next page's).
 */

import { runtimeCode } from "../page/engine";
import { unfold } from "./later";
import { controllerOf, setController } from "./registry";
import type { Table } from "./table";

export type TableModule = typeof import("../entries/table");

let loaded: TableModule | null = null;
let importer: (() => Promise<TableModule>) | null = null;

/** How the table's module is imported (entries/site.ts gives it: `import("./table.js")`). */
export function useTableCode(load: () => Promise<TableModule>): void {
  importer = load;
}

/** The table's code, when it is here already (a controller exists only then). */
export function loadedTableCode(): TableModule | null {
  return loaded;
}

/** The table's modules fetched side by side (the table module imports the runtime's). */
function preload(names: string[]): void {
  for (const name of names) {
    const href = new URL(name, import.meta.url).href;
    if (document.querySelector(`link[rel="modulepreload"][href="${href}"]`)) continue;
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.appendChild(link);
  }
}

let coming: Promise<TableModule> | null = null;

function styles(href: string): Promise<void> {
  const found = document.querySelector<HTMLLinkElement>(`link[data-dh-styles="table"]`);
  if (found?.sheet) return Promise.resolve();
  return new Promise((resolve) => {
    const link = found || document.createElement("link");
    link.addEventListener("load", () => resolve(), { once: true });
    link.addEventListener("error", () => resolve(), { once: true });
    if (!found) {
      link.rel = "stylesheet";
      link.href = href;
      link.setAttribute("data-dh-styles", "table");
      document.body.appendChild(link);
    }
  });
}

/** The table's code (imported once), with its style sheet in the page. */
export function tableCode(): Promise<TableModule> {
  if (!coming) {
    preload(["table.js", "runtime.js"]);
    if (!importer) return Promise.reject(new Error("no table module to import"));
    const code = importer().then((m) => (loaded = m));
    const runtime = runtimeCode();
    const css = styles(new URL("table.css", import.meta.url).href);
    coming = Promise.all([code, css, runtime]).then(([m]) => m);
    coming.catch(() => {
      coming = null; // offline without the site's files: a later press tries again
    });
  }
  return coming;
}

/** The table's controller, mounted on `root` once its code is here (`carried`: a game carried to it). */
export function controller(root: HTMLElement, carried: () => string): Promise<Table> {
  const here = controllerOf(root);
  if (here) return Promise.resolve(here);
  return tableCode().then((m) => {
    const again = controllerOf(root);
    if (again) return again;
    unfold(root);
    const table = m.mount(root, carried());
    setController(root, table);
    return table;
  });
}
