"""Every refusal of the engine is one kind of thing: a code, its parameters, and its text in any language.

A caller shows any of them the same way (``text(lang, names, viewer)``),
without asking which kind it is: the table's worker answers every refusal
that reaches it with its code and text, and the score pad every refusal of
a sheet with its text.
"""

from __future__ import annotations

import inspect
import json

import pytest

from dhumbal.core.errors import IllegalAction, Refusal
from dhumbal.core.i18n import translator
from dhumbal.core.profiles import (
    ERROR_BAD_OPTION,
    ERROR_BAD_PROFILE,
    ERROR_UNKNOWN_OPTION,
    ProfileError,
    find_profile,
    parse_profile,
)
from dhumbal.matches.scoresheet import SheetError
from dhumbal.matches.tally import TallyError
from dhumbal.table import web
from dhumbal.table.protocol import ERROR_BAD_REQUEST, ERROR_NO_SESSION, RequestError

LANGS = ("en", "fr", "nl", "ne")
KINDS = (IllegalAction, RequestError, TallyError, SheetError, ProfileError)


def samples() -> list[Refusal]:
    with pytest.raises(ProfileError) as unknown:
        find_profile("poker")
    with pytest.raises(ProfileError) as option:
        parse_profile("dashain(limit=99)")
    with pytest.raises(ProfileError) as no_option:
        parse_profile("dashain(colour=red)")
    return [IllegalAction("not-your-turn", seat=1, turn=0), RequestError("bad-request", ERROR_BAD_REQUEST),
            TallyError("caller-out", seat=2, deal=3), SheetError("name-twice", name="Asha"),
            unknown.value, option.value, no_option.value]


def test_every_kind_is_a_refusal_with_one_way_to_say_it() -> None:
    base = inspect.signature(Refusal.text)
    for kind in KINDS:
        assert issubclass(kind, Refusal) and issubclass(kind, ValueError)
        assert list(inspect.signature(kind.text).parameters) == list(base.parameters), kind
    for refusal in samples():
        for lang in LANGS:
            text = refusal.text(lang, ["Asha", "Bina", "Chandra"], 0)
            assert text and "{" not in text, (refusal.code, lang, text)


def test_a_profile_refusal_says_in_words_what_the_table_said() -> None:
    unknown, option, no_option = samples()[-3:]
    fr = translator("fr")
    assert unknown.text("fr") == fr(ERROR_BAD_PROFILE, name="poker")
    spec = find_profile("dashain").spec("limit")
    assert option.text("fr") == fr(ERROR_BAD_OPTION, label=fr(spec.label), value="99", allowed=spec.allowed_words(fr))
    assert no_option.text("nl") == translator("nl")(ERROR_UNKNOWN_OPTION, name="colour")
    assert str(option).startswith("option limit='99' of profile dashain")  # a developer's sentence, in English


@pytest.mark.parametrize("lang", LANGS)
def test_the_worker_tells_any_refusal_the_same_way(lang: str) -> None:
    """A profile the page names that does not exist: the table's error is the profile's own refusal."""
    for text in ("poker", "dashain(limit=99)", "dashain(colour=red)"):
        with pytest.raises(ProfileError) as refused:
            parse_profile(text)
        answer = json.loads(web.handle(json.dumps({"op": "settings", "profile": text, "lang": lang})))
        assert answer["ok"] is False and answer["error"]["text"] == refused.value.text(lang)
    answer = json.loads(web.handle(json.dumps({"op": "next-deal", "table": "refusals", "lang": lang})))
    assert answer["error"] == {"code": "no-session", "text": RequestError("no-session", ERROR_NO_SESSION).text(lang)}
