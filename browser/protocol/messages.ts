/**
 * The page-worker protocol: what the page asks of `dhumbal.table.web.handle`
 * and what it answers, key for key as the engine writes them.
 *
 * The engine defines the messages once, in Python
 * (`engine/dhumbal/table/messages.py`: TypedDicts, snake_case keys, and
 * `RESPONSES`, the answer type of each op);
 * `sitegen/dhumbal_site/runtime/tsprotocol.py` writes them as TypeScript into
 * `messages.generated.ts` (the build and `make check-browser` write it before
 * anything reads it). Page modules import the protocol from here only: a field
 * renamed in Python fails the type check where the page uses it. The two
 * helpers below read the few protocol values the page takes from its HTML.
 */

import type {
  BoardResponse,
  ErrorResponse,
  FreshBoardResponse,
  NewRequest,
  Requests,
  Responses,
  RestoreResponse,
  ReviewResponse,
} from "./messages.generated";

export type * from "./messages.generated";

export type Op = keyof Responses & keyof Requests;

/** What a request of `op` gets back: its answer, or the engine's error (nothing changed). */
export type Answer<O extends Op = Op> = Responses[O] | ErrorResponse;

/** A request, as the page builds it: any op's fields. */
export type Request = Requests[Op];

/** A request of the table's (its id and language are set on sending): every op but the pad's and ping. */
export type TableRequest = Requests[Exclude<Op, "ping" | "scorepad">];

/** Any answer that draws the board, with what some ops add (the rules form, a link's fate, a review). */
export type BoardAnswer = BoardResponse &
  Partial<Pick<FreshBoardResponse, "settings_html">> &
  Partial<Pick<RestoreResponse, "restored">> &
  Partial<Pick<ReviewResponse, "review_html">>;

/** The bots' levels, as the engine names them. */
export type Difficulty = NonNullable<NewRequest["difficulty"]>;

const DIFFICULTIES: readonly string[] = ["easy", "medium", "hard", "expert"] satisfies Difficulty[];

/** A level read from the page (an attribute, a form): the engine's name, else medium. */
export function difficultyOf(text: string | null | undefined): Difficulty {
  return text && DIFFICULTIES.includes(text) ? (text as Difficulty) : "medium";
}

/** Seats' names read from the page (JSON in an attribute): a list of texts, else none. */
export function namesOf(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((name) => typeof name === "string") ? value : null;
}
