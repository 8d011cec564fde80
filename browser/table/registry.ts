/**
 * Which tables of the page have their controller (the table's code came on
 * intent): one map, written by the loader only. Every page's script and the
 * table's code share it (one module instance: esbuild's shared chunk).
 */

import type { Table } from "./table";

const controllers = new Map<HTMLElement, Table>();

export function controllerOf(root: Element | null): Table | null {
  return (root && controllers.get(root as HTMLElement)) || null;
}

export function setController(root: HTMLElement, table: Table): void {
  controllers.set(root, table);
}

/** Every controller, its table on the page or not (instant navigation drew another page). */
export function controllers$(): Table[] {
  return [...controllers.values()];
}

export function forget(table: Table): void {
  controllers.delete(table.root);
}
