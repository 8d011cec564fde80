/**
 * The table's moments, which the parts of the table listen to:
 *   answer  an answer arrived, before anything of it is shown
 *   board   a board was put on the page (`before`: the board's picture just before, for the cards' moves)
 *   shown   an answer is shown in full (the bots' moves played back)
 *   hash    the address took the game
 *   full    the full table opened or closed
 *   said    the status line says something new
 * A listener that throws leaves the table playable (the others still run).
 */

import type { BoardAnswer, TableRequest } from "../protocol/messages";
import type { Picture } from "./motion";

export interface MomentArgs {
  answer: [result: BoardAnswer, payload: TableRequest];
  board: [before: Picture | null, payload: TableRequest | null];
  shown: [result: BoardAnswer, payload: TableRequest | null];
  hash: [hash: string];
  full: [open: boolean];
  said: [];
}

export type Moment = keyof MomentArgs;

export class Moments {
  private readonly listeners: { [M in Moment]?: ((...args: MomentArgs[M]) => void)[] } = {};

  on<M extends Moment>(moment: M, fn: (...args: MomentArgs[M]) => void): void {
    const list = (this.listeners[moment] ??= []) as ((...args: MomentArgs[M]) => void)[];
    list.push(fn);
  }

  emit<M extends Moment>(moment: M, ...args: MomentArgs[M]): void {
    for (const fn of (this.listeners[moment] ?? []) as ((...args: MomentArgs[M]) => void)[]) {
      try {
        fn(...args);
      } catch (err) {
        console.error(err); // one part failing leaves the table playable
      }
    }
  }
}
