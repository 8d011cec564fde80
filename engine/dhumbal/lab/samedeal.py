"""One seeded opening played under every profile: where the rules make play diverge.

The same shuffle dealt to the same seats (every profile deals five cards one
at a time from the dealer's left, then turns one card face up), played by
bots of one level for the first few turns under each profile. Because the
bots are deterministic, any difference between two profiles' openings comes
from their rules; :func:`same_deal` finds the first turn where each pair of
profiles parts and says why, from the engine itself:

* ``turn-order``: one profile takes a card before throwing, the other throws
  first (this shows on the very first turn);
* ``refused``: the move one profile's bot made is illegal under the other
  profile; the reason is that profile's own refusal (``IllegalAction``);
* ``values``: both moves are legal under both rules, but the cards involved
  are worth different points, so the bots weigh them differently;
* ``limit``: the same, where the call limits differ;
* ``rules``: any other difference of the two profiles' data (a fallback that
  the site still words);
* ``same``: the two play the turns shown alike (``turn`` is then 0).

Every text is a catalog message, filled in the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots.botlevels import Difficulty, choose
from ..core import cards as C
from ..core.i18n import N_, number, translator
from ..core.messages import Message
from ..core.profiles import Profile, all_profiles
from ..play.action import Action
from ..play.deal import Deal, IllegalAction
from ..play.records import transcript

#: The opening shown on the comparison page: 3 players, medium bots, six turns.
#: The seed is one whose opening parts Dashain from CardRulesPlus on a pick
#: rule, not only on card values; any seed gives a correct section.
SEED: Final = 14
PLAYERS: Final = 3
DIFFICULTY: Final[Difficulty] = "medium"
TURNS: Final = 6

# TRANSLATORS: the seats of the comparison page's sample deal; write the names as your readers would.
SEAT_NAMES: Final = (N_("Asha"), N_("Bikash"), N_("Chandra"), N_("Dipa"), N_("Ekta"), N_("Gita"))


@dataclass(frozen=True)
class Turn:
    """One seat's turn: what it did, what the engine reported, its hand after."""

    number: int  # 1-based
    seat: int
    actions: tuple[Action, ...]
    events: tuple[Message, ...]
    total: int
    cards: int


@dataclass(frozen=True)
class Divergence:
    """Where two profiles' openings first differ, and why (``code`` and ``params``)."""

    turn: int  # 1-based
    profiles: tuple[int, ...]  # indexes into SameDeal.profiles
    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class SameDeal:
    seed: int | str
    players: int
    difficulty: Difficulty
    profiles: list[Profile]
    start: Deal  # the first profile's deal before any move (the hands are the same in all)
    turns: list[list[Turn]]  # per profile
    deals: list[Deal]  # per profile, after the last turn shown
    divergences: list[Divergence]

    def transcripts(self) -> list[dict[str, Any]]:
        """Each profile's opening as a replayable transcript (``records.replay``)."""
        return [transcript(d) for d in self.deals]


def play_opening(profile: Profile, seed: int | str, difficulty: Difficulty, turns: int) -> tuple[Deal, list[Turn], list[Deal]]:
    """Bots play ``turns`` turns of a fresh deal; also the deal before each turn."""
    deal = Deal.new(profile, seed, dealer=profile.players - 1)
    start = deal.copy()
    out: list[Turn] = []
    before: list[Deal] = []
    while len(out) < turns and not deal.is_over:
        seat = deal.turn
        before.append(deal.copy())
        actions: list[Action] = []
        events: list[Message] = []
        while not deal.is_over and deal.turn == seat and (not actions or deal.phase != "start"):
            action = choose(deal, difficulty)
            events += deal.apply(action)
            actions.append(action)
        out.append(Turn(len(out) + 1, seat, tuple(actions), tuple(events), deal.total(seat), len(deal.hands[seat])))
    before.append(deal.copy())
    return deal, out, [start, *before[1:]]


def same_deal(
    seed: int | str = SEED,
    *,
    players: int = PLAYERS,
    difficulty: Difficulty = DIFFICULTY,
    turns: int = TURNS,
    profiles: Sequence[Profile] | None = None,
) -> SameDeal:
    """Play the opening under each profile (default options, ``players`` seats) and compare."""
    ps = [p.with_options(players=players) for p in (profiles if profiles is not None else all_profiles())]
    played = [play_opening(p, seed, difficulty, turns) for p in ps]
    starts = [b[0] for _, _, b in played]
    first = starts[0]
    for p, s in zip(ps, starts):
        if s.hands != first.hands or s.pile != first.pile:
            raise ValueError(f"{p.canonical()} deals seed {seed!r} differently from {ps[0].canonical()}")
    result = SameDeal(
        seed=seed, players=players, difficulty=difficulty, profiles=ps, start=first.copy(),
        turns=[t for _, t, _ in played], deals=[d for d, _, _ in played], divergences=[],
    )
    result.divergences = _divergences(ps, played)
    return result


def _divergences(ps: list[Profile], played: list[tuple[Deal, list[Turn], list[Deal]]]) -> list[Divergence]:
    out: list[Divergence] = []
    orders = {p.draw_first for p in ps}
    if len(orders) > 1:
        out.append(Divergence(1, tuple(range(len(ps))), "turn-order"))
    for i in range(len(ps)):
        for j in range(i + 1, len(ps)):
            if ps[i].draw_first != ps[j].draw_first:
                continue
            found = _first_difference(ps, played, i, j)
            out.append(found if found is not None else Divergence(0, (i, j), "same"))
    return out


def _first_difference(ps: list[Profile], played: list[tuple[Deal, list[Turn], list[Deal]]], i: int, j: int) -> Divergence | None:
    _, turns_i, before_i = played[i]
    _, turns_j, before_j = played[j]
    for n, (ti, tj) in enumerate(zip(turns_i, turns_j)):
        if ti.actions == tj.actions:
            continue
        # Replay the turn's common first actions, then look at the first differing one.
        di, dj = before_i[n].copy(), before_j[n].copy()
        k = 0
        while k < min(len(ti.actions), len(tj.actions)) and ti.actions[k] == tj.actions[k]:
            di.apply(ti.actions[k])
            dj.apply(tj.actions[k])
            k += 1
        ai = ti.actions[k] if k < len(ti.actions) else None
        aj = tj.actions[k] if k < len(tj.actions) else None
        for mover, other, action, deal in ((i, j, ai, dj), (j, i, aj, di)):
            if action is None:
                continue
            refusal = deal.refusal(action)
            if refusal is not None:
                return Divergence(ti.number, (mover, other), "refused",
                                  {"seat": ti.seat, "action": action, "refusal": refusal})
        seat_cards = set(di.hands[ti.seat]) | set(di.offer_cards) | set(dj.offer_cards)
        if any(ps[i].value(c) != ps[j].value(c) for c in seat_cards):
            return Divergence(ti.number, (i, j), "values", {"seat": ti.seat})
        if ps[i].call_limit != ps[j].call_limit:
            return Divergence(ti.number, (i, j), "limit", {"seat": ti.seat})
        return Divergence(ti.number, (i, j), "rules", {"seat": ti.seat})
    return None


# -- words -------------------------------------------------------------------------

TURN_ORDER: Final = N_("Under {first} a player takes a card before throwing; under {second} a player throws first and takes a card afterwards. Play differs from the first turn.")
REFUSED: Final = N_("{seat}'s move under {mover}, {action}, is not allowed under {other}: “{reason}”")
VALUES: Final = N_("Both moves are allowed under both rule sets, but {first} and {second} count the court cards differently ({first_values} against {second_values}), so {seat} keeps and throws different cards.")
LIMIT: Final = N_("Both moves are allowed under both rule sets, but the call limits differ, so {seat} decides differently.")
RULES: Final = N_("Both moves are allowed under both rule sets; the rest of their rules leads {seat} to a different choice.")
SAME: Final = N_("{first} and {second} play these turns alike.")
AND: Final = N_("{first} and {second}")

_ACTIONS: Final = {
    "call": N_("calling"),
    "take-stock": N_("taking the top card of the stock"),
    "take-pile": N_("taking the top card of the pile"),
    "take-card": N_("taking {card}"),
    "throw": N_("throwing {cards}"),
}


def action_words(action: Action, lang: str) -> str:
    """``throwing K♠ K♥``: an action as a phrase in ``lang`` (cards as printed)."""
    t = translator(lang)
    if action.kind == "call":
        return t(_ACTIONS["call"])
    if action.kind == "take":
        if action.source == "stock":
            return t(_ACTIONS["take-stock"])
        if action.cards:
            return t(_ACTIONS["take-card"], card=C.card_text(action.cards[0]))
        return t(_ACTIONS["take-pile"])
    return t(_ACTIONS["throw"], cards=C.cards_text(action.cards))


def _names(indexes: Sequence[int], names: Sequence[str], lang: str) -> str:
    t = translator(lang)
    shown = [names[i] for i in indexes]
    text = shown[-1]
    for name in reversed(shown[:-1]):
        text = t(AND, first=name, second=text)
    return text


def divergence_text(result: SameDeal, d: Divergence, lang: str, seats: Sequence[str]) -> str:
    """Why play parts at ``d``, in ``lang``; ``seats`` are the seats' names."""
    t = translator(lang)
    names = [t(p.name) for p in result.profiles]
    if d.code == "turn-order":
        first = [i for i in d.profiles if result.profiles[i].draw_first]
        second = [i for i in d.profiles if not result.profiles[i].draw_first]
        return t(TURN_ORDER, first=_names(first, names, lang), second=_names(second, names, lang))
    a, b = d.profiles
    if d.code == "same":
        return t(SAME, first=names[a], second=names[b])
    seat = seats[d.params["seat"]]
    if d.code == "refused":
        refusal: IllegalAction = d.params["refusal"]
        return t(REFUSED, seat=seat, mover=names[a], other=names[b],
                 action=action_words(d.params["action"], lang), reason=refusal.text(lang, list(seats)))
    if d.code == "values":
        pa, pb = result.profiles[a], result.profiles[b]
        return t(VALUES, first=names[a], second=names[b], seat=seat,
                 first_values=number("/".join(str(v) for v in pa.courts), lang),
                 second_values=number("/".join(str(v) for v in pb.courts), lang))
    if d.code == "limit":
        return t(LIMIT, seat=seat)
    return t(RULES, seat=seat)


def seat_names(players: int, lang: str) -> list[str]:
    """The sample deal's seat names in ``lang``."""
    t = translator(lang)
    return [t.raw(SEAT_NAMES[i]) for i in range(players)]
