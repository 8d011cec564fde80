/**
 * A worked example's later diagrams: the table after each step but the first.
 *
 * The page carries the first step's diagram and every step's words; the build
 * writes the other diagrams beside the page code (``examples/<id>.<lang>.<hash>.json``,
 * named by the example's ``data-later``; kept offline with the service
 * worker's shell), and the stepper fetches them when the reader shows intent
 * (a pointer or the focus on its buttons) or first moves on: this module is
 * its own file (boards.js), imported then, so a page before intent carries
 * none of it (examples.ts keeps the steps and says a failure). The file is the
 * site's own, yet it is read as untrusted: its name must have the build's
 * shape, its text is at most MAX_BYTES, it must name this example and
 * language and hold one board per later step, each at most MAX_BOARD
 * characters and made only of the elements and attributes a board has
 * (parsed inert in a <template>; anything else refuses the whole file). Until
 * a board comes its place keeps the first diagram's height, so nothing below
 * it jumps (examples.ts); if the file cannot be had (offline and not kept)
 * ``fillBoards`` rejects, each place says so in the page's language, and the
 * next move tries again.
 */

/** The build's file name: example id, language, a 16-digit hash of the text. */
const FILE_NAME = /^([a-z0-9][a-z0-9-]{0,99})\.([A-Za-z][A-Za-z_-]{0,19})\.[0-9a-f]{16}\.json$/;
/** The largest file accepted (the largest built is about 60 KB). */
const MAX_BYTES = 512 * 1024;
/** The largest board accepted, in characters. */
const MAX_BOARD = 64 * 1024;
/** What a board is made of. */
const TAGS = new Set(["UL", "LI", "P", "SPAN", "DIV"]);
const ATTRIBUTES = /^(?:class|role|title|aria-label|aria-hidden|data-[a-z][a-z-]{0,30})$/;

/** The later boards of one example, in step order (board 1 is the table after step 1). */
type Boards = DocumentFragment[];

/** A board's HTML as inert nodes, or an error if it holds anything a board does not. */
function parseBoard(html: string): DocumentFragment {
  if (html.length > MAX_BOARD) throw new Error("a board is too long");
  const template = document.createElement("template");
  template.innerHTML = html;
  for (const el of template.content.querySelectorAll("*")) {
    if (!TAGS.has(el.tagName)) throw new Error(`a board holds <${el.tagName.toLowerCase()}>`);
    for (const name of el.getAttributeNames()) {
      if (!ATTRIBUTES.test(name)) throw new Error(`a board holds the attribute ${name}`);
    }
  }
  return template.content;
}

/** Checks the file's text: this example's, this language's, ``count`` boards of a board's shape. */
function readBoards(text: string, id: string, lang: string, count: number): Boards {
  if (text.length > MAX_BYTES) throw new Error("the boards' file is too large");
  const data = JSON.parse(text) as unknown;
  if (!data || typeof data !== "object") throw new Error("the boards' file is not an object");
  const { id: gotId, lang: gotLang, boards } = data as { id?: unknown; lang?: unknown; boards?: unknown };
  if (gotId !== id || gotLang !== lang) throw new Error("the boards' file is another example's");
  if (!Array.isArray(boards) || boards.length !== count) throw new Error("the boards' file has the wrong count");
  return boards.map((html) => {
    if (typeof html !== "string") throw new Error("a board is not text");
    return parseBoard(html);
  });
}

/** The example's boards' file, if its name has the build's shape and names this example: [url, lang]. */
function boardsFile(root: HTMLElement, base: string): [URL, string] | null {
  const name = root.getAttribute("data-later") || "";
  const match = FILE_NAME.exec(name);
  if (!match || match[1] !== root.getAttribute("data-example")) return null;
  return [new URL(`examples/${name}`, base), match[2] || ""];
}

/** Fetches and checks the boards (``readBoards``); rejects when offline and not kept. */
async function fetchBoards(url: URL, id: string, lang: string, count: number): Promise<Boards> {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`no boards for ${id}: HTTP ${response.status}`);
  if (Number(response.headers.get("content-length") || 0) > MAX_BYTES) throw new Error("the boards' file is too large");
  return readBoards(await response.text(), id, lang, count);
}

/** Fetches the example's later boards and puts each in its place (``slots``, by their ``data-board``). */
export async function fillBoards(root: HTMLElement, slots: HTMLElement[]): Promise<void> {
  const file = boardsFile(root, import.meta.url);
  const id = root.getAttribute("data-example") || "";
  if (!file) throw new Error(`${id}: no boards' file`);
  const boards = await fetchBoards(file[0], id, file[1], slots.length);
  for (const slot of slots) {
    if (slot.hasAttribute("data-filled")) continue;
    const board = boards[Number(slot.getAttribute("data-board")) - 1];
    if (!board) throw new Error(`${id}: no board ${slot.getAttribute("data-board")}`);
    slot.querySelector(":scope > .dh-dlater__failed")?.remove();
    slot.prepend(board);
    slot.setAttribute("role", "group");
    slot.setAttribute("aria-label", slot.getAttribute("data-label") || "");
    slot.setAttribute("data-filled", "");
    slot.removeAttribute("aria-busy");
  }
}
