"""The parity cases: seeded bot deals, played the same way in CPython and in Pyodide.

This file is imported in CPython and its source is run inside Pyodide
(tests/offline/test_offline_pyodide.py, through tests/offline/pyodide_check.mjs),
so both sides execute the same code. It uses only the engine and the standard library.
"""

from __future__ import annotations

import json
from typing import Any

SEEDS = (1, 2, 3, 17, 2024)
#: (profile, options, bot levels) — each profile with its defaults and with
#: house rules that change dealing, values and bot paths.
OPTION_SETS: tuple[tuple[str, dict[str, str], tuple[str, ...]], ...] = (
    ("nepali-games", {}, ("medium",)),
    ("nepali-games", {"players": "3", "cards": "7", "runs": "on", "jokers": "on", "courts": "11-12-13"}, ("easy", "expert", "hard")),
    ("dashain", {}, ("medium",)),
    ("dashain", {"players": "5", "first-round-call": "on", "limit": "15"}, ("hard", "easy", "expert", "hard", "easy")),
    ("cardrulesplus", {}, ("medium",)),
    ("cardrulesplus", {"players": "3", "jokers": "on", "set-pick": "on", "direction": "counterclockwise", "courts": "11-12-13"}, ("expert", "hard", "easy")),
)


#: Long matches with many expert decisions (issue: an expert table's link made in
#: CPython 3.11 once diverged in Pyodide at its 16th deal, because ``sum()`` of floats
#: differs between Python versions): every deal's transcript must match.
MATCHES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("nepali-games(players=6,rounds=RR,cards=7)", ("expert",) * 6, "41"),
)
#: Deals in each long match (override with ``DHUMBAL_PARITY_ROUNDS`` for a longer check).
MATCH_ROUNDS = 16


def cases(rounds: int = MATCH_ROUNDS) -> list[dict[str, Any]]:
    deals = [
        {"profile": key, "options": options, "bots": list(bots), "seed": seed}
        for key, options, bots in OPTION_SETS
        for seed in SEEDS
    ]
    matches = [
        {"match": text.replace("RR", str(rounds)), "profile": text.split("(")[0], "options": {"match": True},
         "bots": list(bots), "seed": seed}
        for text, bots, seed in MATCHES
    ]
    return deals + matches


def play(case: dict[str, Any]) -> str:
    """One case's transcript as JSON text (the bytes compared across runtimes).

    A case with a ``hash`` is a shared table link (``#table=…``): the session
    it restores (every action of the link applied once), as transcripts of every
    deal and the match scores.
    """
    from dhumbal.play.records import transcript

    if "hash" in case:
        from dhumbal.play.share import decode_hash
        from dhumbal.table.links import restore_session

        session = restore_session(decode_hash(case["hash"]), "en")
        deal = session.deal
        assert deal is not None
        return json.dumps({"deal": transcript(deal), "scores": session.match.scores, "moves": session.moves},
                          sort_keys=True, ensure_ascii=False)
    from dhumbal.bots.botlevels import play_deal
    from dhumbal.core.profiles import find_profile
    from dhumbal.play.deal import Deal

    if "match" in case:
        return play_match(case)

    profile = find_profile(case["profile"])
    if case["options"]:
        profile = profile.with_options(**case["options"])
    deal = Deal.new(profile, case["seed"])
    bots = case["bots"]
    levels = bots[0] if len(bots) == 1 else [bots[i % len(bots)] for i in range(deal.players)]
    play_deal(deal, levels)
    return json.dumps(transcript(deal), sort_keys=True, ensure_ascii=False)


def play_match(case: dict[str, Any]) -> str:
    """A whole match of bots (one level per match seat): every deal's transcript and the scores."""
    from dhumbal.bots.botlevels import choose
    from dhumbal.core.profiles import parse_profile
    from dhumbal.matches.match import Match
    from dhumbal.play.records import transcript

    match = Match(parse_profile(case["match"]), seed=case["seed"])
    levels = case["bots"]
    deals = []
    while not match.is_over():
        deal = match.start_deal()
        while not deal.is_over:
            deal.play(choose(deal, levels[match.seating[deal.turn]]))
        match.finish_deal()
        deals.append(transcript(deal))
    return json.dumps({"deals": deals, "scores": match.scores}, sort_keys=True, ensure_ascii=False)


def run(cases_json: str) -> str:
    """``[transcript, …]`` for the cases, as JSON (the Pyodide entry point)."""
    return json.dumps([play(case) for case in json.loads(cases_json)], ensure_ascii=False)
