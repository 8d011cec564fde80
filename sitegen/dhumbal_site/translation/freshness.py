"""Is each translated page up to date with its English page?

A translation records, in its front matter, the hash of the English page it
was last brought up to date with, then its own (``dhumbal_source: <English>
<translation>``; older records hold the first only). When the English page
changes, the translation is *stale*: the built page shows a notice in its
own language, linking to the English page, the status page lists it, and
``make check-catalogs`` and ``make test`` warn about it (a warning, not a
failure: the reader is told, and an English edit must not fail the checks
of every other language). A translator who has updated the page records it::

    make translated PAGES="fr/rules/dashain.md nl/rules/dashain.md"

which refuses a page that did not change since it was last recorded while
its English page did (for an older record, git tells), unless ``FORCE=1``
(an English change that does not touch the meaning, such as a typo). A
page whose text is still the English text (a copy that ``make
new-language`` made, its record naming the English it copied, or one made
by hand) is *untranslated*: the build shows the current English page
there, marked as English, with a notice, and recording it is refused.

A recorded hash rather than git history, because the comparison must hold on
any checkout: a clean CI checkout may be a shallow clone with one commit,
where history says nothing about which English text a translation followed.
The hash is of the text with its white space collapsed, so rewrapping a
paragraph changes nothing.

Git only supplies the date of the English change, when it can: the last
commit that touched the English page, unless the working copy differs from
that commit or the commit is the boundary of a shallow clone (where every
file looks changed). Otherwise the notice says the same without a date.

Run ``python -m dhumbal_site.translation.freshness [check] [LANG…]`` (``sitegen`` on the
path) to list stale pages (as warnings: the exit status is 0), ``… record
[--force] PAGE…`` to record the named translations (``fr/index.md``, or
``fr`` for every page of a language).
"""

from __future__ import annotations

import datetime
import hashlib
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from dhumbal.core.i18n import N_, digits

from .. import ROOT
from .commandline import arguments, parser

DOCS = ROOT / "docs"
REFERENCE = "en"
#: The front matter key of a translation that holds its English page's hash.
FIELD = "dhumbal_source"
#: Hex digits kept of the SHA-256: plenty to tell two versions of a page apart.
HASH_LENGTH = 16

#: The notice on a stale page (see overrides/partials/dhumbal/outdated.html).
TITLE = N_("This translation may be out of date")
CHANGED_ON = N_("The English page changed on {date}; this translation may be out of date.")
CHANGED = N_("The English page changed after this translation was last updated; it may be out of date.")
READ_ENGLISH = N_("Read the English page")
HELP_UPDATE = N_("Help update the translation")

#: Messages of the check (the status page shows them in the reader's language).
STALE = N_("the English page changed since this translation was last updated")
STALE_ON = N_("the English page changed on {date}, after this translation was last updated")
UNRECORDED = N_("the translation does not say which version of the English page it follows")

_FRONT_LINE = re.compile(rf"^{FIELD}:.*$", re.M)
_HEX = re.compile(r"^[0-9a-f]{%d}$" % HASH_LENGTH)


def source_hash(text: str) -> str:
    """The hash of an English page's text, white space collapsed."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()[:HASH_LENGTH]


def _recorded(text: str) -> list[str]:
    """The values of the record line (``[english]`` or ``[english, translation]``), [] if none or malformed."""
    front = _front(text)
    if front is None:
        return []
    match = _FRONT_LINE.search(front)
    if match is None:
        return []
    values = match.group(0).split(":", 1)[1].strip().strip("\"'").split()
    return values if 1 <= len(values) <= 2 and all(_HEX.match(v) for v in values) else []


def recorded_hash(text: str) -> str | None:
    """The English hash a translation's front matter records, or None (also for a malformed value)."""
    values = _recorded(text)
    return values[0] if values else None


def recorded_translation(text: str) -> str | None:
    """The translation's own hash when it was last recorded, if the record keeps it."""
    values = _recorded(text)
    return values[1] if len(values) == 2 else None


def translation_hash(text: str) -> str:
    """The hash of a translation's text without its record line (white space collapsed, as
    :func:`source_hash`): equal to the English page's hash when the page is a copy of it."""
    front = _front(text)
    if front is not None:
        rest, after = _FRONT_LINE.sub("", front), text[4 + len(front):]
        text = "---\n" + rest + after if rest.strip() else after.partition("\n")[2]
    return source_hash(text)


def is_copy(text: str, english: str) -> bool:
    """Whether the translation ``text`` is still the English page: the current one (copied by
    hand), or the one its record names (copied by ``make new-language``, then left as it was)."""
    own = translation_hash(text)
    return own == source_hash(english) or own == recorded_hash(text)


def _front(text: str) -> str | None:
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---", 4)
    return None if end == -1 else text[4 : end + 1]


def with_hash(text: str, value: str) -> str:
    """``text`` (a translation) with ``value`` recorded in its front matter, the rest unchanged."""
    line = f"{FIELD}: {value}"
    front = _front(text)
    if front is None:
        return f"---\n{line}\n---\n\n{text}"
    end = 4 + len(front)
    if _FRONT_LINE.search(front):
        return text[:4] + _FRONT_LINE.sub(line, front, count=1) + text[end:]
    return text[:end] + line + "\n" + text[end:]


# -- the English page's date, from git when it knows ------------------------------


@dataclass(frozen=True)
class _History:
    dates: dict[str, datetime.date]  # English page (docs/en relative) -> last commit date
    unknown: frozenset[str]  # pages whose date git cannot tell (edited, or at a shallow boundary)


def _git(args: list[str], cwd: Path) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


@lru_cache(maxsize=8)
def _history(english: Path, _stamp: tuple[tuple[str, int, int], ...]) -> _History:
    """What git says of the pages under ``english`` (one ``git log`` for all of them)."""
    if not english.is_dir() or _git(["rev-parse", "--is-inside-work-tree"], english) is None:
        return _History({}, frozenset())
    log = _git(["log", "--format=@%H %cs", "--name-only", "--relative", "--no-renames", "--", "."], english) or ""
    boundary: set[str] = set()
    shallow_path = _git(["rev-parse", "--git-path", "shallow"], english)
    if shallow_path:
        shallow = Path(shallow_path.strip())
        shallow = shallow if shallow.is_absolute() else english / shallow
        if shallow.exists():
            boundary = set(shallow.read_text(encoding="ascii", errors="replace").split())
    dates: dict[str, datetime.date] = {}
    unknown: set[str] = set()
    commit, day = "", None
    for line in log.splitlines():
        if line.startswith("@"):
            commit, _, when = line[1:].partition(" ")
            try:
                day = datetime.date.fromisoformat(when.strip())
            except ValueError:
                day = None
            continue
        name = line.strip()
        if not name or name in dates or name in unknown:
            continue
        if commit in boundary or day is None:
            unknown.add(name)
        else:
            dates[name] = day
    edited = _git(["diff", "--name-only", "--relative", "HEAD", "--", "."], english) or ""
    for name in edited.split("\n"):
        if name.strip():
            unknown.add(name.strip())
            dates.pop(name.strip(), None)
    return _History(dates, frozenset(unknown))


def english_date(name: str, docs: Path = DOCS) -> datetime.date | None:
    """When the English page ``name`` (``rules/dashain.md``) last changed, if git can tell."""
    english = docs / REFERENCE
    stamp = tuple(
        (p.as_posix(), p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(english.rglob("*.md"))
    ) if english.is_dir() else ()
    return _history(english.resolve(), stamp).dates.get(name)


def date_text(day: datetime.date, lang: str) -> str:
    """A date as the language writes it in running text ("12 mars 2025", "२०२५ मार्च १२")."""
    from babel.dates import format_date

    try:
        text = format_date(day, format="long", locale=lang)
    except Exception:  # an unknown locale: the ISO form reads everywhere
        text = day.isoformat()
    return digits(text, lang)


# -- checking ---------------------------------------------------------------------


@dataclass(frozen=True)
class Freshness:
    """One translated page against its English page."""

    page: str  # "fr/rules/dashain.md"
    name: str  # "rules/dashain.md"
    recorded: str | None
    current: str
    changed: datetime.date | None  # when the English page changed, if git can tell

    #: The page is still the English text (see :func:`is_copy`): not translated yet.
    copy: bool = False
    #: The line of the record in the page's front matter (1 when it has none).
    line: int = 1

    @property
    def fresh(self) -> bool:
        """Whether the page needs nothing from freshness (an untranslated copy is parity's to report)."""
        return self.copy or self.recorded == self.current

    @property
    def state(self) -> str:
        """``untranslated``, ``fresh``, ``stale`` or ``unrecorded``."""
        if self.copy:
            return "untranslated"
        if self.recorded is None:
            return "unrecorded"
        return "fresh" if self.fresh else "stale"

    def text(self, lang: str = "en") -> str:
        from dhumbal.core.i18n import translator

        t = translator(lang)
        if self.state == "unrecorded":
            return t(UNRECORDED)
        if self.changed is not None:
            return t(STALE_ON, date=date_text(self.changed, lang))
        return t(STALE)

    def __str__(self) -> str:
        if self.state == "unrecorded":
            how = f"no {FIELD} in its front matter"
        else:
            how = f"recorded {self.recorded}, the English page is now {self.current}"
        return (f"docs/{self.page}:{self.line}: {self.text('en')} ({how}); once the translation says what "
                f"the English page says, run: make translated PAGES={self.page}")


def check_page(lang: str, name: str, docs: Path = DOCS) -> Freshness | None:
    """The page ``name`` in ``lang`` against English; None when it has no translation or no English page."""
    path, english = docs / lang / name, docs / REFERENCE / name
    if lang == REFERENCE or not path.is_file() or not english.is_file():
        return None
    english_text, text = english.read_text(encoding="utf-8"), path.read_text(encoding="utf-8")
    current = source_hash(english_text)
    recorded = recorded_hash(text)
    copy = is_copy(text, english_text)
    front = _front(text)
    record = _FRONT_LINE.search(front) if front is not None else None
    line = text.count("\n", 0, 4 + record.start()) + 1 if record is not None else 1
    changed = None if recorded == current or copy else english_date(name, docs)
    return Freshness(f"{lang}/{name}", name, recorded, current, changed, copy, line)


def check_language(lang: str, docs: Path = DOCS) -> list[Freshness]:
    """Every translated page of ``lang`` (in English page order)."""
    english = docs / REFERENCE
    names = sorted(p.relative_to(english).as_posix() for p in english.rglob("*.md")) if english.is_dir() else []
    return [f for f in (check_page(lang, name, docs) for name in names) if f is not None]


def languages(docs: Path = DOCS) -> list[str]:
    return sorted(p.name for p in docs.iterdir() if p.is_dir() and p.name != REFERENCE and any(p.rglob("*.md")))


class Refused(ValueError):
    """Pages ``make translated`` did not record, each with why (the others were recorded)."""

    def __init__(self, reasons: list[str], recorded: list[str]) -> None:
        super().__init__("\n".join(reasons))
        self.reasons = reasons
        self.recorded = recorded


def _unchanged_in_git(lang: str, name: str, docs: Path) -> bool | None:
    """For a record without the translation's own hash: whether git shows the translation
    unchanged since the English page changed (None when git cannot tell)."""
    if _git(["rev-parse", "--is-inside-work-tree"], docs) is None:
        return None
    ours, theirs = f"{lang}/{name}", f"{REFERENCE}/{name}"
    edited = (_git(["status", "--porcelain", "--", ours, theirs], docs) or "").splitlines()
    if any(line[3:].endswith(ours) for line in edited):
        return False  # the translation has an edit of its own
    if any(line[3:].endswith(theirs) for line in edited):
        return True  # the English edit is newer than anything committed
    last = [(_git(["log", "-1", "--format=%H", "--", page], docs) or "").strip() for page in (ours, theirs)]
    if not all(last) or _git(["rev-parse", "--is-shallow-repository"], docs) == "true\n":
        return None
    if last[0] == last[1]:
        return False  # one commit changed both
    return _git(["merge-base", "--is-ancestor", last[0], last[1]], docs) is not None


def record(pages: Iterable[str], docs: Path = DOCS, *, force: bool = False) -> list[str]:
    """Record the current English hash in each named translation (``fr/index.md``, or ``fr`` for all
    of a language's pages); returns the pages whose front matter changed. Raises ValueError,
    naming the page, for a page that is not a translation of an English page. Unless ``force``,
    a page that is still the English text, or that did not change since it was last recorded
    while its English page did, is refused (:class:`Refused`, after recording the others)."""
    targets: list[tuple[str, str]] = []
    for given in pages:
        shown = given.strip().strip("/")
        if shown.startswith("docs/"):
            shown = shown[len("docs/"):]
        lang, _, name = shown.partition("/")
        if not lang or lang == REFERENCE:
            raise ValueError(f"{given}: name a translated page, such as fr/index.md (English pages record nothing)")
        if not name:
            if not (docs / lang).is_dir():
                raise ValueError(f"{given}: there is no language folder docs/{lang}")
            targets += [(lang, f.name) for f in check_language(lang, docs)]
            continue
        if not (docs / lang / name).is_file():
            raise ValueError(f"{given}: there is no page docs/{lang}/{name}")
        if not (docs / REFERENCE / name).is_file():
            raise ValueError(f"{given}: there is no English page docs/{REFERENCE}/{name} to follow")
        targets.append((lang, name))
    changed: list[str] = []
    refused: list[str] = []
    for lang, name in targets:
        path = docs / lang / name
        text = path.read_text(encoding="utf-8")
        english = (docs / REFERENCE / name).read_text(encoding="utf-8")
        value, own = source_hash(english), translation_hash(text)
        if _recorded(text) == [value, own]:
            continue  # already recorded as it is
        shown = f"{lang}/{name}"
        if not force and is_copy(text, english):
            refused.append(f"{shown}: not recorded: the page is still the English text; translate it first")
            continue
        if not force and recorded_hash(text) not in (None, value):
            before = recorded_translation(text)
            unchanged = (own == before) if before is not None else _unchanged_in_git(lang, name, docs)
            if unchanged:
                refused.append(
                    f"{shown}: not recorded: the translation did not change since it was last recorded, "
                    "but the English page did; update the translation first (git log -p "
                    f"docs/{REFERENCE}/{name} shows what changed), or, if the English change does not "
                    f"touch the meaning, run: make translated FORCE=1 PAGES={shown}")
                continue
        path.write_text(with_hash(text, f"{value} {own}"), encoding="utf-8")
        changed.append(shown)
    if refused:
        raise Refused(refused, changed)
    return changed


def main(argv: Iterable[str] | None = None) -> int:
    """``check [--docs DIR] [LANG…]`` (stale and unrecorded pages are warnings: exit 0) or
    ``record [--docs DIR] [--force] PAGE…`` (exit 2 if a page is refused)."""
    p = parser("freshness", "Which translated pages follow the current English page; record those that do.",
               docs=DOCS, commands=("check", "record"))
    p.add_argument("--force", action="store_true", help="record even a page whose structure differs")
    p.add_argument("names", nargs="*", metavar="LANG|PAGE", help="languages to check, or pages to record")
    options = arguments(p, argv)
    if options is None:
        return 2
    command, docs, force, args = options.command, options.docs, options.force, options.names
    if command == "record":
        if not args:
            print("usage: make translated PAGES=\"fr/index.md nl/rules/dashain.md\" (or PAGES=fr for a whole language)")
            return 2
        try:
            changed = record(args, docs, force=force)
        except Refused as refusal:
            for page in refusal.recorded:
                print(f"{page}: now follows the current English page")
            for reason in refusal.reasons:
                print(reason)
            return 2
        except ValueError as error:
            print(error)
            return 2
        for page in changed:
            print(f"{page}: now follows the current English page")
        if not changed:
            print("every named translation already follows the current English page")
        return 0
    for lang in args or languages(docs):
        reports = [r for r in check_language(lang, docs) if not r.copy]
        for report in reports:
            if not report.fresh:
                print(f"warning: {report}")
        print(f"{lang}: {sum(r.fresh for r in reports)}/{len(reports)} translated pages follow the current English page")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
