"""The profiles side by side, as rows of localized cells.

Each row reads the fields of ``Profile``: the comparison page is a rendering of
the data the engine plays by, so it cannot say anything the engine does not do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from .i18n import N_, NP_, Translator, number, translator
from .profiles import DHUMBAL_7, DOUBLE_MARGIN, DOUBLE_PENALTY, OptionSpec, Profile, all_profiles


@dataclass(frozen=True)
class Row:
    key: str
    label: str  # localized
    cells: tuple[str, ...]  # localized, one per profile
    differs: bool
    #: The one profile (an index into the cells) that departs from all the
    #: others, which agree; ``None`` if the row does not differ or if no single
    #: profile stands alone (with three profiles: all three differ).
    departs: int | None = None

    @property
    def all_differ(self) -> bool:
        return len(self.cells) > 2 and len(set(self.cells)) == len(self.cells)


Cell = Callable[[Profile, Translator], str]

# TRANSLATORS: the separator between the parts of one comparison cell.
SEPARATOR: Final = N_("; ")


def _sep(t: Translator) -> str:
    return t.raw(SEPARATOR)


def _players(p: Profile, t: Translator) -> str:
    return t(N_("{low}–{high}"), low=p.players_min, high=p.players_max)


def _deck(p: Profile, t: Translator) -> str:
    if p.jokers:
        return t(N_("{count} cards with two jokers"), count=p.deck_size)
    base = t(N_("{count} cards, no jokers"), count=p.deck_size)
    if _spec(p, "jokers") is not None:
        base += _sep(t) + t(N_("option: two jokers ({count} cards)"), count=p.with_options(jokers=True).deck_size)
    return base


def _dealt(p: Profile, t: Translator) -> str:
    text = t.plural(*_CARDS_EACH, p.hand_size, count=p.hand_size)
    spec = _spec(p, "cards")
    if spec is not None:
        others = [c for c in spec.choices if c != str(p.hand_size)]
        if others:
            text += _sep(t) + t(N_("option: {count}"), count=int(others[0]))
    return text


_CARDS_EACH: Final = NP_("{count} card each", "{count} cards each")


def _spec(p: Profile, key: str) -> OptionSpec | None:
    return next((s for s in p.option_specs if s.key == key), None)


def _after_deal(p: Profile, t: Translator) -> str:
    return {
        "pile": t(N_("next card face up starts the pile; the rest is the stock")),
        "offer": t(N_("next card face up is on offer; the rest is the deck")),
        "discard": t(N_("top of the stock turned up starts the discard pile")),
    }[p.after_deal]


def _values(p: Profile, t: Translator) -> str:
    j, q, k = p.courts
    text = t(N_("A=1, 2–10 face value, J={j}, Q={q}, K={k}"), j=j, q=q, k=k)
    if p.jokers or _spec(p, "jokers") is not None:
        text += ", " + t(N_("joker {value}"), value=0)
    spec = _spec(p, "courts")
    if spec is not None:
        for choice in spec.choices:
            if choice != spec.text(p.option("courts")):
                text += _sep(t) + t(N_("option: J, Q, K = {values}"), values=number(choice.replace("-", "/"), t.lang))
    return text


def _turn(p: Profile, t: Translator) -> str:
    if p.draw_first:
        return t(N_("call, or take one card (stock top or pile top), then throw one or more"))
    if p.take_rule == "offer-any-or-run-end":
        return t(N_("call, or throw one or more, then pick one card (deck top or from the previous player's throw)"))
    return t(N_("call, or throw one or more, then draw one card (stock top or the previous discard if it was a single card)"))


def _throws(p: Profile, t: Translator) -> str:
    parts = [t(N_("one card"))]
    if p.set_max is None:
        parts.append(t(N_("two or more of one rank (part of a set is fine)")))
    else:
        parts.append(t(N_("a set of 2–{max} of one rank"), max=p.set_max))
    if p.runs:
        parts.append(t(N_("a run of 3 or more in one suit")))
    elif _spec(p, "runs") is not None:
        parts.append(t(N_("runs only with the runs option")))
    return _sep(t).join(parts)


def _run_order(p: Profile, t: Translator) -> str:
    if not p.runs and _spec(p, "runs") is None:
        return t(N_("no runs"))
    text = t(N_("ace low, king high, no wrap: Q-K-A and K-A-2 are not runs"))
    if not p.runs:
        text = t(N_("with the runs option: {rule}"), rule=text)
    return text


def _jokers(p: Profile, t: Translator) -> str:
    if not p.jokers and _spec(p, "jokers") is None:
        return t(N_("none"))
    if p.jokers_in_runs:
        rule = t(N_("worth 0, wild in sets and runs (this site's ruling)"))
    else:
        rule = t(N_("worth 0, wild in a set beside at least one real card, never in a run; two jokers may go together"))
    return rule if p.jokers else t(N_("option: {rule}"), rule=rule)


def _take(p: Profile, t: Translator) -> str:
    if p.take_rule == "pile-top":
        return t(N_("top card of the pile only"))
    if p.take_rule == "offer-any-or-run-end":
        return t(N_("any card of a single or set on offer; from a run only one of its two end cards; the rest of that throw leaves play"))
    text = t(N_("only a lone discarded card; a set or run cannot be picked"))
    if _spec(p, "set-pick") is not None:
        text += _sep(t) + t(N_("option: any card of a just-thrown set"))
    return text


def _taken_card(p: Profile, t: Translator) -> str:
    if p.pile_card_barred:
        return t(N_("a card taken from the pile cannot be thrown back the same turn, not even inside a group; a stock card can"))
    return t(N_("not applicable: the throw comes before the pick"))


def _group_order(p: Profile, t: Translator) -> str:
    if p.take_rule == "pile-top":
        return t(N_("the group's last card becomes the pile top; the player chooses the order"))
    if p.take_rule == "offer-any-or-run-end":
        return t(N_("the whole throw is on offer to the next player"))
    return t(N_("the whole throw lands on the discard pile; pickable only if a single card"))


def _stock_out(p: Profile, t: Translator) -> str:
    if p.reshuffle_keep == "top":
        return t(N_("the pile except its top card is shuffled into a new stock"))
    return t(N_("the cards that went out of play are shuffled into a new deck"))


def _limit(p: Profile, t: Translator) -> str:
    if p.call_limit is None:
        text = t(N_("none"))
        spec = _spec(p, "limit")
        if spec is not None:
            text += _sep(t) + t(N_("option: a limit, e.g. {limit} (Dhumbal 7)"), limit=DHUMBAL_7)
        return text
    return t(N_("total of {limit} or less"), limit=p.call_limit) + _sep(t) + t(N_("option"))


def _timing(p: Profile, t: Translator) -> str:
    if p.draw_first:
        return t(N_("only at the start of one's own turn, before taking a card"))
    text = t(N_("only at the start of one's own turn, before throwing"))
    if not p.first_round_call:
        text += _sep(t) + t(N_("nobody may call until every player has had one turn (option: allow it)"))
    return text


def _caller_wins_when(p: Profile, t: Translator) -> str:
    return t(N_("strictly lower than every other hand: a tie goes against the caller"))


def _caller_wins(p: Profile, t: Translator) -> str:
    return {
        "collect": t(N_("caller charged 0; every other player charged their hand")),
        "pay-caller": t(N_("each other player pays the caller their own hand")),
        "cumulative": t(N_("caller scores 0; every other player adds their hand")),
    }[p.settlement]


def _caught(p: Profile, t: Translator) -> str:
    if p.settlement == "collect":
        return t(N_("caller charged the penalty ({penalty}) instead of the hand, not added to it; the lowest other hand wins the deal"), penalty=p.penalty)
    if p.settlement == "pay-caller":
        return t(N_("the lowest hand wins; the caller pays that player the points of every other hand, the caller's own included; nobody else scores"))
    text = t(N_("caller scores the penalty ({penalty}); everyone else scores 0"), penalty=p.penalty)
    spec = _spec(p, "penalty")
    if spec is not None:
        for other in spec.choices:
            if other != str(p.penalty):
                text += _sep(t) + t(N_("option: {penalty}"), penalty=int(other))
    if _spec(p, "double-penalty") is not None:
        text += _sep(t) + t(N_("option: {penalty} when undercut by more than {margin}"), penalty=DOUBLE_PENALTY, margin=DOUBLE_MARGIN)
    return text


def _ties(p: Profile, t: Translator) -> str:
    return {
        "dealer-left": t(N_("first clockwise from the dealer's left")),
        "after-caller": t(N_("first after the caller in turn order")),
        "caller-only": t(N_("only the caller is penalised")),
    }[p.tie_order]


def _money(p: Profile, t: Translator) -> str:
    if p.settlement == "collect":
        return t(N_("the winner collects every charge; the changes sum to 0"))
    if p.settlement == "pay-caller":
        return t(N_("payments between players, summing to 0; money per point is shown ({rate} a point by default)"), rate=number(p.money_per_point or "0", t.lang))
    return t(N_("no transfers: cumulative points, low is good"))


_MATCH_DEALS: Final = NP_(
    "{count} deal (option), ledger from 0, highest total wins, ties share a place, no elimination",
    "{count} deals (option), ledger from 0, highest total wins, ties share a place, no elimination",
)


def _match(p: Profile, t: Translator) -> str:
    if p.settlement == "collect":
        return t.plural(*_MATCH_DEALS, p.rounds or 0)
    if p.settlement == "pay-caller":
        return t(N_("a running tally until the table ends"))
    return t(N_("cumulative; {limit} or more is eliminated at once; the last player standing wins, or the lowest after an agreed number of deals"), limit=p.elimination or 0)


def _long_deal(p: Profile, t: Translator) -> str:
    if p.turn_cap is None:
        return t(N_("no cap stated"))
    return t(N_("after {count} turns across the table, every hand is shown: no penalty, lowest wins, same tie order"), count=p.turn_cap)


def _empty_hand(p: Profile, t: Translator) -> str:
    if p.draw_first:
        return t(N_("does not win by itself; call at the start of the next own turn"))
    return t(N_("cannot happen: a card is always picked after throwing"))


def _next_dealer(p: Profile, t: Translator) -> str:
    if p.settlement == "pay-caller":
        return t(N_("passes to the player who went first"))
    if p.settlement == "cumulative":
        return t(N_("moves on in the direction of play (clockwise by default)"))
    return t(N_("moves one seat to the left each deal"))


ROWS: Final[Sequence[tuple[str, str, Cell]]] = (
    ("players", N_("Players"), _players),
    ("deck", N_("Deck"), _deck),
    ("dealt", N_("Dealt"), _dealt),
    ("after-deal", N_("After the deal"), _after_deal),
    ("values", N_("Card values"), _values),
    ("turn", N_("A turn"), _turn),
    ("throws", N_("What may be thrown"), _throws),
    ("run-order", N_("Run order"), _run_order),
    ("jokers", N_("Jokers"), _jokers),
    ("take", N_("What may be taken"), _take),
    ("taken-card", N_("A card just taken"), _taken_card),
    ("group-order", N_("Order of a thrown group"), _group_order),
    ("stock-out", N_("When the stock runs out"), _stock_out),
    ("limit", N_("Call limit"), _limit),
    ("timing", N_("When one may call"), _timing),
    ("wins-when", N_("The caller wins when"), _caller_wins_when),
    ("caller-wins", N_("A winning call"), _caller_wins),
    ("caught", N_("A caught call"), _caught),
    ("ties", N_("Tie among the lowest"), _ties),
    ("money", N_("Money flow"), _money),
    ("match", N_("The match"), _match),
    ("long-deal", N_("A long deal"), _long_deal),
    ("empty-hand", N_("An empty hand"), _empty_hand),
    ("next-dealer", N_("Next dealer"), _next_dealer),
)


def comparison(lang: str, profiles: Sequence[Profile] | None = None) -> list[Row]:
    """One row per dimension, cells in ``lang``; ``differs`` marks rows where the profiles disagree."""
    t = translator(lang)
    ps = list(profiles) if profiles is not None else all_profiles()
    rows = []
    for key, label, cell in ROWS:
        cells = tuple(cell(p, t) for p in ps)
        rows.append(Row(key, t(label), cells, len(set(cells)) > 1, _departs(cells)))
    return rows


def _departs(cells: Sequence[str]) -> int | None:
    """The index of the one cell that differs from all the others, which are equal."""
    if len(cells) < 3:
        return None
    for i, cell in enumerate(cells):
        others = {c for j, c in enumerate(cells) if j != i}
        if len(others) == 1 and cell not in others:
            return i
    return None


# -- a profile with its options, in words --------------------------------------------

PLAYERS_COUNT: Final = NP_("{count} player", "{count} players")
# TRANSLATORS: one house rule in an example's header, e.g. "Runs: on".
OPTION_SETTING: Final = N_("{option}: {value}")
# TRANSLATORS: joins a profile's name and its changed house rules, e.g. "Nepali Games · 2 players".
TITLE_SEPARATOR: Final = N_(" · ")


def rules_in_words(profile: Profile, lang: str) -> str:
    """The profile's name and every option that differs from its defaults, in ``lang``.

    ``nepali-games(players=2,runs=on)`` reads "Nepali Games · 2 players · Runs:
    on": the labels and values come from the option specs, as on the options
    tables, never the canonical code.
    """
    t = translator(lang)
    parts = [t(profile.name)]
    for spec in profile.option_specs:
        value = profile.option(spec.key)
        if value == spec.default:
            continue
        if spec.key == "players" and isinstance(value, int):
            parts.append(t.plural(*PLAYERS_COUNT, value))
        else:
            parts.append(t(OPTION_SETTING, option=t(spec.label), value=spec.value_words(value, t)))
    return t.raw(TITLE_SEPARATOR).join(parts)


def options_table(profile: Profile, lang: str) -> list[tuple[str, str, str, str]]:
    """(key, label, default, allowed) for each house rule of ``profile``, in ``lang``."""
    t = translator(lang)
    out = []
    for s in profile.option_specs:
        out.append((s.key, t(s.label), s.value_words(s.default, t), s.allowed_words(t)))
    return out
