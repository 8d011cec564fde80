"""Content parity of translated pages: does each page say everything the English page says?

A translated page is compared with the English page of the same name by
structure, not by meaning: the same sections (heading levels, in order), the
same generated markers, the same number of tables, lists, list items,
admonitions and code blocks in each section, and a word count within a band
for the language (the whole page, and each longer section within a wider
band). Counting files would call a page "translated" when whole sections are
missing; this names the page and the missing piece instead.

A language that reads better with a different structure says so in the
page's front matter, with a reason; the translation status page shows it::

    dhumbal_parity:
      - section: its-names        # the English heading's id, or "page"
        kind: lists               # see KINDS
        reason: Les deux noms se lisent mieux en liste.

A declaration that no longer matches a difference is itself reported, so
declarations cannot outlive the difference they excuse.

Each difference names the translated page's line (the heading of its section) and,
where it helps, the English page's. A page's structure is read by
:mod:`dhumbal_site.translation.pagestructure`.

Run ``python -m dhumbal_site.translation.parity [LANG…]`` (``make check-catalogs``
does) to list every difference; it exits 1 if any is undeclared. ``make test``
runs the same check.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .. import ROOT
from .commandline import arguments, parser
from .pagestructure import Page, Section, read_page

DOCS = ROOT / "docs"
REFERENCE = "en"

#: Page word count as a share of the English page's, per language. French
#: runs longer than English and Nepali much shorter (postpositions join the word
#: before them); a language not listed gets DEFAULT_BAND.
WORD_BANDS: dict[str, tuple[float, float]] = {
    "fr": (0.92, 1.45),
    "nl": (0.88, 1.35),
    "ne": (0.72, 1.35),
}
DEFAULT_BAND: tuple[float, float] = (0.75, 1.50)
#: Sections with at least this many English words are compared one by one,
#: within the page band widened by SECTION_SLACK on each side.
SECTION_MIN_WORDS = 40
SECTION_SLACK = 0.25

#: What can differ (and be declared).
KINDS = ("sections", "tables", "lists", "items", "admonitions", "code", "words")

@dataclass(frozen=True)
class Difference:
    """One way a translated page differs from the English page.

    ``section`` is the English heading's id (``page`` for the whole page);
    ``params`` feed the message, which :meth:`text` gives in any language.
    """

    page: str
    kind: str
    section: str
    code: str
    params: tuple[tuple[str, Any], ...] = ()
    #: The line of the translated page it concerns (its section's heading, or 1 for the page).
    line: int = 1
    #: The line of the English page it follows, where that helps (a missing section or marker).
    english_line: int = 0

    @property
    def key(self) -> tuple[str, str]:
        return (self.section, self.kind)

    def param(self, name: str) -> Any:
        return dict(self.params)[name]

    def text(self, lang: str = "en") -> str:
        from dhumbal.core.i18n import number, translator

        t = translator(lang)
        values: dict[str, object] = {}
        for name, value in self.params:
            values[name] = number(f"{value:.2f}", lang) if isinstance(value, float) else value
        return t(MESSAGES[self.code], **values)

    def __str__(self) -> str:
        english = f" (in English: docs/{REFERENCE}/{self.page.partition('/')[2]}:{self.english_line})" if self.english_line else ""
        return f"docs/{self.page}:{self.line}: {self.text('en')}{english}"


def N_(message: str) -> str:
    return message


#: The messages of the check, in the catalogs (the status page shows them in
#: the reader's language). ``{heading}`` is the English heading.
MESSAGES: dict[str, str] = {
    "section-missing": N_("the section “{heading}” is missing"),
    "section-extra": N_("the section “{heading}” has no counterpart in English"),
    "section-level": N_("the section “{heading}” is at heading level {found}, in English at {expected}"),
    "marker-missing": N_("the generated content {marker} is missing"),
    "marker-extra": N_("the generated content {marker} is not on the English page"),
    "marker-order": N_("the generated content is not in the English order"),
    "tables": N_("in “{heading}”: {found} tables, in English {expected}"),
    "lists": N_("in “{heading}”: {found} lists, in English {expected}"),
    "items": N_("in “{heading}”: {found} list items, in English {expected}"),
    "admonitions": N_("in “{heading}”: {found} notes, in English {expected}"),
    "code": N_("in “{heading}”: {found} code blocks, in English {expected}"),
    "words-page": N_("the page has {ratio} times the English word count, outside {low}–{high}"),
    "words-section": N_("in “{heading}”: {ratio} times the English word count, outside {low}–{high}"),
    "page-missing": N_("the page is not translated"),
    "page-untranslated": N_("the page is not translated yet: it is still the English text"),
    "declaration-stale": N_("a declared difference ({kind} in “{heading}”) no longer exists: remove it from the front matter"),
    "declaration-bad": N_("a declared difference cannot be read: {problem}"),
    "front-matter-bad": N_("the page's front matter cannot be read: {problem}"),
}


#: How the status page names each kind of difference.
KIND_LABELS: dict[str, str] = {
    "sections": N_("sections"),
    "tables": N_("tables"),
    "lists": N_("lists"),
    "items": N_("list items"),
    "admonitions": N_("notes"),
    "code": N_("code blocks"),
    "words": N_("length"),
}


@dataclass(frozen=True)
class Declared:
    """A difference the page declares on purpose, with its reason."""

    page: str
    section: str
    kind: str
    reason: str
    heading: str


@dataclass
class PageReport:
    page: str
    differences: list[Difference]
    declared: list[Declared]
    #: Not translated yet: no file, or a file that is still the English text.
    missing: bool = False

    @property
    def ok(self) -> bool:
        return not self.differences and not self.missing


#: What a language still being translated (see languages.PARTIAL) may lack without
#: failing the check: everything but the generated content's markers, whose loss
#: would drop or misplace a table or an example.
_NEVER_PARTIAL = ("marker-missing", "marker-extra", "marker-order", "declaration-bad", "front-matter-bad")


def is_warning(difference: Difference, partial: bool) -> bool:
    """Whether ``difference`` is reported as a warning rather than a failure."""
    return partial and difference.code not in _NEVER_PARTIAL


# -- comparing ---------------------------------------------------------------------


def band_for(lang: str) -> tuple[float, float]:
    return WORD_BANDS.get(lang, DEFAULT_BAND)


#: What skipping a section costs when sections are aligned (see _pair_sections).
GAP = -1.0
#: How much the way two sections begin (their first blocks) weighs in their likeness.
HEAD_WEIGHT = 1.0


def _similarity(en: Section, tr: Section, band: tuple[float, float]) -> float:
    """How alike two sections are, to align a translation with the English page.

    An explicit heading id equal to the English id settles it; otherwise the
    generated markers weigh most, then the heading level, the counts of
    tables, lists, items, notes and code blocks, and the length.
    """
    if en.explicit_id and tr.explicit_id and en.level:
        return 20.0 if en.slug == tr.slug else -20.0
    low, high = band
    score = 0.0 if en.level == tr.level else -3.0
    if en.markers or tr.markers:
        score += 4.0 if en.markers == tr.markers else -4.0
    for kind in ("tables", "lists", "items", "admonitions", "code"):
        score += 1.0 if en.count(kind) == tr.count(kind) else -1.0
    if en.words:
        ratio = tr.words / en.words
        score += 2.0 if low - SECTION_SLACK <= ratio <= high + SECTION_SLACK else -1.0
    # how the section begins: a section whose heading was removed runs on in the one
    # before, which still begins as its English section does
    if en.head_kind or tr.head_kind:
        alike = en.head_kind == tr.head_kind
        if alike and en.head_words:
            alike = low - SECTION_SLACK <= tr.head_words / en.head_words <= high + SECTION_SLACK
        score += HEAD_WEIGHT if alike else -HEAD_WEIGHT
    return score


def _joined(first: Section, second: Section) -> Section:
    """Two sections read as one: what the first becomes when the second's heading is removed."""
    return Section(
        level=first.level, title=first.title, slug=first.slug, explicit_id=first.explicit_id, line=first.line,
        markers=first.markers + second.markers, tables=first.tables + second.tables, lists=first.lists + second.lists,
        items=first.items + second.items, admonitions=first.admonitions + second.admonitions,
        code=first.code + second.code, words=first.words + second.words, start=first.start,
        head_kind=first.head_kind, head_words=first.head_words,
    )


def _pair_sections(english: list[Section], other: list[Section], band: tuple[float, float] = DEFAULT_BAND
                   ) -> tuple[list[tuple[Section, Section]], list[Section], list[Section]]:
    """Align the translation's sections with the English ones, keeping both orders.

    A global alignment (each section paired with at most one, order kept)
    maximising the sections' similarity: a section the translation leaves out
    is reported missing instead of shifting every later pair by one. A
    heading removed while its text stays (the text then runs on in the
    section before) is told apart from a section left out: one translated
    section is then paired with the two English ones read as one (and the
    other way round for a heading added inside a section), so the heading
    named missing is the one that was removed, and the text it kept is not
    counted as a difference of the section before.
    """
    en, tr = english[1:], other[1:]
    n, m = len(en), len(tr)
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    step = [[""] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        best[i][0], step[i][0] = best[i - 1][0] + GAP, "missing"
    for j in range(1, m + 1):
        best[0][j], step[0][j] = best[0][j - 1] + GAP, "extra"
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            options = [
                (best[i - 1][j - 1] + _similarity(en[i - 1], tr[j - 1], band), "pair"),
                (best[i - 1][j] + GAP, "missing"),
                (best[i][j - 1] + GAP, "extra"),
            ]
            if i >= 2:  # the heading of en[i - 1] removed: its text is in tr[j - 1]
                options.append((best[i - 2][j - 1] + GAP + _similarity(_joined(en[i - 2], en[i - 1]), tr[j - 1], band), "heading-missing"))
            if j >= 2:  # a heading added inside en[i - 1]
                options.append((best[i - 1][j - 2] + GAP + _similarity(en[i - 1], _joined(tr[j - 2], tr[j - 1]), band), "heading-extra"))
            best[i][j], step[i][j] = max(options, key=lambda o: o[0])
    pairs: list[tuple[Section, Section]] = []
    missing: list[Section] = []
    extra: list[Section] = []
    i, j = n, m
    while i or j:
        move = step[i][j]
        if move == "pair":
            pairs.append((en[i - 1], tr[j - 1]))
            i, j = i - 1, j - 1
        elif move == "heading-missing":
            pairs.append((_joined(en[i - 2], en[i - 1]), tr[j - 1]))
            missing.append(en[i - 1])
            i, j = i - 2, j - 1
        elif move == "heading-extra":
            pairs.append((en[i - 1], _joined(tr[j - 2], tr[j - 1])))
            extra.append(tr[j - 1])
            i, j = i - 1, j - 2
        elif move == "missing":
            missing.append(en[i - 1])
            i -= 1
        else:
            extra.append(tr[j - 1])
            j -= 1
    pairs.append((english[0], other[0]))
    pairs.reverse()
    missing.reverse()
    extra.reverse()
    return pairs, missing, extra


def compare_pages(english: Page, other: Page, lang: str) -> list[Difference]:
    """Every structural difference of ``other`` (in ``lang``) from ``english``."""
    page = other.path
    out: list[Difference] = []

    def diff(kind: str, section: str, code: str, line: int = 1, english_line: int = 0, **params: Any) -> None:
        out.append(Difference(page, kind, section, code, tuple(params.items()), line, english_line))

    pairs, missing, extra = _pair_sections(english.sections, other.sections, band_for(lang))
    # where each English section is in the translation: its counterpart's heading, or for a
    # section without one the counterpart of the nearest English section before it
    placed: dict[tuple[str, int], int] = {(en.slug, en.line): tr.line for en, tr in pairs}
    where: dict[tuple[str, int], int] = {}
    last = 1
    for en in english.sections:
        last = placed.get((en.slug, en.line), last)
        where[(en.slug, en.line)] = last
    for s in missing:
        diff("sections", s.slug, "section-missing", where.get((s.slug, s.line), 1), s.line, heading=s.title)
    for s in extra:
        diff("sections", s.slug, "section-extra", s.line, heading=s.title)
    en_markers, tr_markers = english.markers, other.markers
    for m in [m for m in en_markers if en_markers.count(m) > tr_markers.count(m)]:
        if not any(d.code == "marker-missing" and d.param("marker") == f"<!-- dhumbal:{m} -->" for d in out):
            holder = next((s for s in english.sections if m in s.markers), None)
            diff("sections", "page", "marker-missing", where.get((holder.slug, holder.line), 1) if holder else 1,
                 holder.line if holder else 0, marker=f"<!-- dhumbal:{m} -->")
    for m in [m for m in tr_markers if tr_markers.count(m) > en_markers.count(m)]:
        if not any(d.code == "marker-extra" and d.param("marker") == f"<!-- dhumbal:{m} -->" for d in out):
            holder = next((s for s in other.sections if m in s.markers), None)
            diff("sections", "page", "marker-extra", holder.line if holder else 1, marker=f"<!-- dhumbal:{m} -->")
    if sorted(en_markers) == sorted(tr_markers) and en_markers != tr_markers:
        diff("sections", "page", "marker-order")

    low, high = band_for(lang)
    for en, tr in pairs:
        heading = en.title or english.front.get("title", "") or page
        if en.level and tr.level != en.level:
            diff("sections", en.slug, "section-level", tr.line, en.line, heading=heading, found=tr.level, expected=en.level)
        for kind in ("tables", "lists", "items", "admonitions", "code"):
            if tr.count(kind) != en.count(kind):
                diff(kind, en.slug, kind, tr.line, en.line, heading=heading, found=tr.count(kind), expected=en.count(kind))
        if en.words >= SECTION_MIN_WORDS:
            ratio = tr.words / en.words
            s_low, s_high = max(0.0, low - SECTION_SLACK), high + SECTION_SLACK
            if not s_low <= ratio <= s_high:
                diff("words", en.slug, "words-section", tr.line, heading=heading, ratio=ratio, low=s_low, high=s_high)
    if english.words:
        ratio = other.words / english.words
        if not low <= ratio <= high:
            diff("words", "page", "words-page", ratio=ratio, low=low, high=high)
    return out


def declarations(page: Page, english: Page) -> tuple[list[Declared], list[Difference]]:
    """The page's declared differences, and problems with the declarations themselves."""
    raw = page.front.get("dhumbal_parity")
    if raw is None:
        return [], []
    problems: list[Difference] = []

    def bad(problem: str) -> None:
        problems.append(Difference(page.path, "sections", "page", "declaration-bad", (("problem", problem),)))

    if not isinstance(raw, list):
        bad("dhumbal_parity must be a list of {section, kind, reason}")
        return [], problems
    headings = {s.slug: s.title for s in english.sections}
    headings["page"] = str(english.front.get("title", "page"))
    out: list[Declared] = []
    for entry in raw:
        if not isinstance(entry, dict) or set(entry) != {"section", "kind", "reason"}:
            bad(f"{entry!r}: give exactly section, kind and reason")
            continue
        section, kind, reason = str(entry["section"]), str(entry["kind"]), str(entry["reason"]).strip()
        if kind not in KINDS:
            bad(f"kind {kind!r} is not one of {', '.join(KINDS)}")
        elif section not in headings:
            bad(f"section {section!r} is not an English heading id (one of {', '.join(headings)})")
        elif len(reason) < 10:
            bad(f"the difference {kind} in {section!r} needs a reason")
        else:
            out.append(Declared(page.path, section, kind, reason, headings[section] or headings["page"]))
    return out, problems


def page_names(lang: str, docs: Path = DOCS) -> list[str]:
    base = docs / lang
    if not base.is_dir():
        return []
    return sorted(p.relative_to(base).as_posix() for p in base.rglob("*.md"))


def check_page(lang: str, name: str, docs: Path = DOCS) -> PageReport:
    english_path = docs / REFERENCE / name
    path = docs / lang / name
    shown = f"{lang}/{name}"
    if not path.exists():
        return PageReport(shown, [Difference(shown, "sections", "page", "page-missing")], [], missing=True)
    from .freshness import is_copy

    if is_copy(path.read_text(encoding="utf-8"), english_path.read_text(encoding="utf-8")):
        return PageReport(shown, [Difference(shown, "sections", "page", "page-untranslated")], [], missing=True)
    try:
        english = read_page(english_path, f"{REFERENCE}/{name}")
        page = read_page(path, shown)
    except (ValueError, yaml.YAMLError) as exc:
        return PageReport(shown, [Difference(shown, "sections", "page", "front-matter-bad", (("problem", str(exc)),))], [])
    found = compare_pages(english, page, lang)
    declared, problems = declarations(page, english)
    keys = {(d.section, d.kind) for d in declared}
    undeclared = [d for d in found if d.key not in keys or d.code.startswith("marker")]
    found_keys = {d.key for d in found}
    for d in declared:
        if (d.section, d.kind) not in found_keys:
            problems.append(Difference(shown, d.kind, d.section, "declaration-stale", (("kind", d.kind), ("heading", d.heading))))
    return PageReport(shown, undeclared + problems, declared)


def check_language(lang: str, docs: Path = DOCS) -> list[PageReport]:
    """One report per English page."""
    return [check_page(lang, name, docs) for name in page_names(REFERENCE, docs)]


def translated_languages(docs: Path = DOCS) -> list[str]:
    return sorted(p.name for p in docs.iterdir() if p.is_dir() and p.name != REFERENCE and any(p.rglob("*.md")))


def partial_languages(docs: Path = DOCS) -> frozenset[str]:
    """The languages still being translated, as the ``mkdocs.yml`` beside ``docs`` marks them."""
    from ..languages import partial_codes

    config = docs.parent / "mkdocs.yml"
    return partial_codes(config) if config.is_file() else frozenset()


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m dhumbal_site.translation.parity [--docs DIR] [LANG…]``: exit 1 on any undeclared difference
    (in a language still being translated, only on the markers: the rest is a warning)."""
    options = arguments(parser("parity", "Each translated page has its English page's structure.",
                               docs=DOCS, languages=True), argv)
    if options is None:
        return 2
    docs, args = options.docs, options.languages
    langs = args or translated_languages(docs)
    partial = partial_languages(docs)
    bad = 0
    for lang in langs:
        reports = check_language(lang, docs)
        for report in reports:
            for d in report.differences:
                if d.code == "front-matter-bad":  # the front matter check names the line and what to do
                    print(f"note: docs/{d.page}: not compared with its English page until its front matter can be read")
                elif is_warning(d, lang in partial):
                    print(f"warning: {d}")
                else:
                    print(f"error: {d}")
                    bad += 1
        done = sum(r.ok for r in reports)
        declared = sum(len(r.declared) for r in reports)
        todo = " (being translated: what is missing is a warning)" if lang in partial else ""
        print(f"{lang}: {done}/{len(reports)} pages at parity with English, {declared} declared difference(s){todo}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
