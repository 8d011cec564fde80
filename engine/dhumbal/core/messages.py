"""Every event and refusal the engine can report: a stable code, parameters,
and an English template that the catalogs translate.

Parameters are JSON values. Keys named in ``SEAT_KEYS`` hold seat numbers and
are shown as seat names; ``card`` / ``cards`` hold card texts such as ``K♠``.

Told to a reader (``viewer``, a seat), a message that gives the reader's own
seat a role speaks to them in the second person: the engine picks the
template ``code/you`` when the reader is the ``seat``, ``code/you-ROLE`` when
the reader holds another role (``caught/you-catcher``: "Bot 2 is caught: you
hold 4…"), so no language glues "You" into a sentence written about someone
else ("Vous, qui a annoncé, a été pris"). :func:`variant` makes the choice;
tests render every message with the reader in every role it can hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from .i18n import N_, NP_, translator

SEAT_KEYS: Final = frozenset({"seat", "caller", "winner", "catcher", "owner"})
#: Parameters holding a seat, as the roles a seat can have in a message, in the
#: order :func:`variant` looks for the reader (``turn`` and ``dealer`` are shown
#: as ``turn_name`` and ``dealer_name``).
ROLE_KEYS: Final = ("seat", "caller", "winner", "catcher", "owner", "turn", "dealer")

# code -> template (or (singular, plural) with the count in ``count``)
TEMPLATES: Final[Mapping[str, str | tuple[str, str]]] = {
    # refusals
    "deal-over": N_("The deal is over: no more actions."),
    "not-your-turn": N_("It is {turn_name}'s turn, not {seat}'s."),
    "call-after-draw": N_("You cannot call now: your turn began with taking a card. Throw, and call at the start of your next turn."),
    "call-after-throw": N_("You cannot call now: you have already thrown this turn. Call at the start of your next turn."),
    "over-call-limit": N_("You cannot call on {total}: a call needs a hand of {limit} or less."),
    "first-round-call": N_("Nobody may call until every player has had one turn."),
    "must-take-first": N_("Take a card first, from the stock or the pile; then throw."),
    "already-took": N_("You have already taken a card this turn; now throw."),
    "must-throw-first": N_("Throw first; then pick one card."),
    "already-threw": N_("You have already thrown this turn; now pick one card."),
    "empty-throw": N_("Choose at least one card to throw."),
    "card-not-in-hand": N_("{card} is not in your hand."),
    "duplicate-card": N_("{card} is named twice in that throw."),
    "mixed-ranks": N_("Cards of different ranks cannot be thrown together: throw one card or cards of one rank."),
    "not-a-run": N_("{cards} is not a run: a run is three or more consecutive cards of one suit, ace low, with no wrap past the king."),
    "joker-in-run": N_("A joker cannot be part of a run."),
    "set-too-large": N_("A set has at most {max} cards."),
    "pile-card-returned": N_("{card} was taken from the pile this turn and cannot be thrown back until a later turn, not even inside a group."),
    "not-pile-top": N_("Only the top card of the pile, {top}, may be taken."),
    "pile-take-empty-hand": N_("With an empty hand you cannot take the pile card: it could not be thrown back. Call, or draw from the stock."),
    "stock-empty": N_("The stock is empty and there is nothing to shuffle into a new one."),
    "pick-which-card": N_("Say which card of the previous throw you pick: {cards}."),
    "card-not-on-offer": N_("{card} is not in the previous throw."),
    "own-throw": N_("You cannot pick up your own throw."),
    "run-middle-card": N_("From a run only an end card may be picked: {ends}."),
    "set-not-pickable": N_("The previous throw was a set: only a single thrown card may be picked. Draw from the stock."),
    "run-not-pickable": N_("The previous throw was a run: only a single thrown card may be picked. Draw from the stock."),
    "turn-cannot-complete": N_("That throw would leave you no card to pick, so it cannot be made."),
    "bad-action": N_("Not an action: {text}."),
    # events
    "dealt": N_("{dealer_name} deals {hand_size} cards each; {exposed} is turned face up."),
    "took-stock": N_("{seat} draws a card from the stock."),
    "took-stock-seen": N_("{seat} draws {card} from the stock."),
    "took-pile": N_("{seat} takes {card} from the pile."),
    "picked-offer": N_("{seat} picks {card} from the previous throw."),
    "out-of-play": NP_("The rest of that throw, {count} card, goes out of play.", "The rest of that throw, {count} cards, go out of play."),
    "threw": N_("{seat} throws {cards}."),
    "hand-now": N_("{seat} now holds {count_cards} worth {total}."),
    "reshuffle": NP_("The stock is empty: {count} card is shuffled into a new stock.", "The stock is empty: {count} cards are shuffled into a new stock."),
    "call": N_("{seat} calls on {total}."),
    "call-won": N_("{seat}'s {total} is strictly lower than every other hand: the call wins."),
    "caught": N_("{seat} is caught: {catcher} holds {low}, not more than {total}."),
    # the same when the catcher's hand equals the call (Message.text chooses it)
    "caught-tie": N_("{seat} is caught: {catcher} also holds {total}, and a tie goes against the caller."),
    "turn-cap": N_("{count} turns have been played: every hand is shown, nobody is penalised, and the lowest hand wins."),
    "deal-winner": N_("{seat} wins the deal."),
    "no-deal-winner": N_("Nobody wins the deal: only the caller scores."),
    "eliminated": N_("{seat} has {score} points and is eliminated."),
    "cards-count": NP_("{count} card", "{count} cards"),
    # the same events told to the player who made them
    "took-stock-seen/you": N_("You draw {card} from the stock."),
    "took-pile/you": N_("You take {card} from the pile."),
    "picked-offer/you": N_("You pick {card} from the previous throw."),
    "threw/you": N_("You throw {cards}."),
    "call/you": N_("You call on {total}."),
    "call-won/you": N_("Your {total} is strictly lower than every other hand: your call wins."),
    "caught/you": N_("You are caught: {catcher} holds {low}, not more than {total}."),
    "caught-tie/you": N_("You are caught: {catcher} also holds {total}, and a tie goes against the caller."),
    "deal-winner/you": N_("You win the deal."),
    "eliminated/you": N_("You have {score} points and are eliminated."),
    "hand-now/you": N_("You now hold {count_cards} worth {total}."),
    "not-your-turn/you": N_("It is {turn_name}'s turn, not yours."),
    "not-your-turn/you-turn": N_("It is your turn, not {seat}'s."),
    # the reader in another role than the acting seat
    "caught/you-catcher": N_("{seat} is caught: you hold {low}, not more than {total}."),
    "caught-tie/you-catcher": N_("{seat} is caught: you also hold {total}, and a tie goes against the caller."),
    "dealt/you-dealer": N_("You deal {hand_size} cards each; {exposed} is turned face up."),
}


def variant(code: str, params: Mapping[str, object], viewer: int | None) -> str:
    """The template code to tell ``viewer`` (a seat) a message: the second-person
    form for the first role the viewer holds in it, else ``code``."""
    if viewer is None:
        return code
    for key in ROLE_KEYS:
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value == viewer:
            name = f"{code}/you" if key == "seat" else f"{code}/you-{key}"
            if name in TEMPLATES:
                return name
    return code


@dataclass(frozen=True)
class Message:
    """A code and its parameters: render it in any language with ``text``."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict)

    def text(self, lang: str = "en", names: Sequence[str] | None = None, viewer: int | None = None) -> str:
        """The message in ``lang``; told to ``viewer`` (a seat) where it concerns them.

        A draw from the stock shows its card only to the seat that drew it, or
        to everyone when ``viewer`` is ``None`` (a worked example, a replay),
        and never when the message no longer holds the card (as the table
        keeps another seat's draw). A caller caught by a hand equal to the
        call is told so (``caught-tie``), not "4, not more than 4".
        """
        code = self.code
        if code == "took-stock" and "card" in self.params and (viewer is None or viewer == self.params.get("seat")):
            code = "took-stock-seen"
        if code == "caught" and self.params.get("low") == self.params.get("total"):
            code = "caught-tie"
        return render(variant(code, self.params, viewer), self.params, lang, names)

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "params": dict(self.params)}


def render(code: str, params: Mapping[str, object], lang: str = "en", names: Sequence[str] | None = None) -> str:
    t = translator(lang)
    shown: dict[str, object] = {}
    for k, v in params.items():
        if k in SEAT_KEYS and isinstance(v, int) and not isinstance(v, bool):
            shown[k] = seat_name(v, names, lang)
        else:
            shown[k] = v
    if "turn" in params and isinstance(params["turn"], int):
        shown["turn_name"] = seat_name(params["turn"], names, lang)
    if "dealer" in params and isinstance(params["dealer"], int):
        shown["dealer_name"] = seat_name(params["dealer"], names, lang)
    if "hand_count" in params and isinstance(params["hand_count"], int):
        n = params["hand_count"]
        pair = TEMPLATES["cards-count"]
        assert isinstance(pair, tuple)
        shown["count_cards"] = t.plural(pair[0], pair[1], n)
    template = TEMPLATES.get(code)
    if template is None:
        raise KeyError(f"no message for code {code!r}")
    if isinstance(template, tuple):
        count = params.get("count")
        n = count if isinstance(count, int) else 0
        return t.plural(template[0], template[1], n, **shown)
    return t(template, **shown)


SEAT_DEFAULT: Final = N_("Seat {number}")


def seat_name(index: int, names: Sequence[str] | None, lang: str) -> str:
    if names is not None and 0 <= index < len(names):
        return names[index]
    return translator(lang)(SEAT_DEFAULT, number=index + 1)
