/**
 * A worked example's later diagrams (page/boards.ts): imported by the step
 * control when the reader shows intent or moves on, so that a page before
 * intent carries none of this code.
 */

export { fillBoards } from "../page/boards";
