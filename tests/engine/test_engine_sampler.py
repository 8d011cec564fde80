"""The sampler of hidden hands: consistent with the seat's view, uniform, reproducible, blind.

- On random positions of every profile (and house rules that change the
  pack), every sample keeps every card once, gives each seat its card count
  and the cards it was seen to pick up, and looks from the seat exactly like
  the real deal.
- On a position small enough to list every consistent deal, the samples are
  uniform among them (a chi-square test; a classic biased shuffle fails the
  same test, so it can fail).
- Two real deals that look the same from a seat give the same samples: the
  sampler never reads the real hidden cards.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter

import pytest

from dhumbal.bots import botlevels, heuristic
from dhumbal.bots.sampler import Sampler, SamplerError, view_key
from dhumbal.play.deal import Deal, SeatView
from dhumbal.play.playout import random_policy
from dhumbal.play.records import from_position, state_to_json
from tests.engine.rules_kit import cards, check_cards, profile

PROFILES = [
    profile("nepali-games"),
    profile("nepali-games", players=3, cards="7", runs=True, jokers=True),
    profile("dashain"),
    profile("dashain", players=5, first_round_call=True),
    profile("cardrulesplus"),
    profile("cardrulesplus", players=3, jokers=True, set_pick=True),
]


def positions(prof, seed: int, stops: int = 6):  # type: ignore[no-untyped-def]
    """Live positions of one seeded deal, played by random moves and by bots, at random moments."""
    rng = random.Random(f"positions/{seed}")
    deal = Deal.new(prof, seed, dealer=seed % prof.players)
    randomly = random_policy(rng)
    moves = 0
    while deal.phase != "over" and moves < 400:
        if rng.random() < 0.2:
            yield deal.copy()
            stops -= 1
            if stops == 0:
                return
        deal.play(randomly(deal) if rng.random() < 0.5 else heuristic.choose(deal, "medium"))
        moves += 1


def without_history(view: SeatView) -> SeatView:
    return dataclasses.replace(view, history=())


@pytest.mark.parametrize("prof", PROFILES, ids=lambda p: p.canonical())
def test_every_sample_is_consistent_with_the_view(prof) -> None:  # type: ignore[no-untyped-def]
    checked = 0
    for seed in range(8):
        for deal in positions(prof, seed):
            for seat in range(deal.players):
                view = deal.public_view(seat)
                sampler = Sampler(prof, view)
                for sample in sampler.samples(5, seed=seed):
                    check_cards(sample)  # every card once
                    assert [len(h) for h in sample.hands] == [len(h) for h in deal.hands]
                    assert len(sample.stock) == len(deal.stock)
                    assert sample.hands[seat] == deal.hands[seat]
                    for s in range(deal.players):  # the cards each seat was seen to pick up, still held
                        assert sample.known[s] == deal.known[s]
                        assert set(sample.known[s]) <= set(sample.hands[s])
                    # from the seat, the sample looks exactly like the real deal
                    assert without_history(sample.public_view(seat)) == without_history(view)
                    assert sample.legal_actions() == deal.legal_actions() or seat != deal.turn
                    checked += 1
    assert checked > 300


def test_samples_play_on_to_an_end() -> None:
    for prof in PROFILES:
        for deal in positions(prof, 3, stops=2):
            for sample in Sampler(prof, deal.public_view(deal.turn)).samples(3):
                botlevels.play_deal(sample, "medium", checked=True)
                check_cards(sample)


def test_samples_are_reproducible_and_the_seed_matters() -> None:
    deal = Deal.new(profile("dashain"), 5)
    for _ in range(9):
        deal.play(heuristic.choose(deal, "hard"))
    sampler = Sampler(deal.profile, deal.public_view(2))
    first = [state_to_json(s) for s in sampler.samples(10, seed=1)]
    assert first == [state_to_json(s) for s in Sampler(deal.profile, deal.public_view(2)).samples(10, seed=1)]
    assert first != [state_to_json(s) for s in sampler.samples(10, seed=2)]
    assert len({str(s["hands"]) for s in first}) == 10


def test_drawing_only_the_hands_gives_the_hands_of_the_whole_sample() -> None:
    deal = Deal.new(profile("cardrulesplus", jokers=True), 8)
    for _ in range(14):
        deal.play(heuristic.choose(deal, "medium"))
    sampler = Sampler(deal.profile, deal.public_view(1))
    for k in range(50):  # from the same random state (the whole shuffle draws more numbers after)
        whole = sampler.sample(sampler.rng(k))
        drawn = sampler.hidden_cards(sampler.rng(k))
        assert drawn[1] == []
        for s in range(deal.players):
            if s != 1:
                assert sorted(drawn[s] + list(whole.known[s])) == sorted(whole.hands[s])
        assert sampler.hidden_totals(sampler.rng(k)) == whole.totals()


@pytest.mark.parametrize("prof", PROFILES, ids=lambda p: p.canonical())
def test_the_hands_end_of_the_order_comes_with_the_same_draws(prof) -> None:  # type: ignore[no-untyped-def]
    """``dealt`` gives the end of ``order``'s order that the hidden hands take, and leaves
    the random source where ``order`` leaves it (also with an empty stock)."""
    checked = 0
    for seed in range(10):
        for deal in positions(prof, seed, stops=4):
            sampler = Sampler(prof, deal.public_view(deal.turn))
            a, b = random.Random(f"dealt/{seed}/{checked}"), random.Random(f"dealt/{seed}/{checked}")
            for _ in range(5):
                whole = sampler.order(a)
                end = sampler.dealt(b)
                assert end == whole[len(whole) - sum(sampler.hidden):]
            assert a.getstate() == b.getstate()
            checked += 1
    # every unseen card in the other hand, none in the stock
    view = Deal.new(profile("dashain", players=2), 1).public_view(0)
    counts = (view.hand_counts[0], len(view.known[1]) + len(view.unseen))
    sampler = Sampler(profile("dashain", players=2), dataclasses.replace(view, stock_count=0, hand_counts=counts))
    a, b = random.Random(1), random.Random(1)
    whole = sampler.order(a)
    assert sampler.dealt(b) == whole and sorted(whole) == sorted(view.unseen)
    assert a.getstate() == b.getstate()
    assert checked >= 20



# -- never peeks --------------------------------------------------------------------------


def twin(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """Another real deal that looks the same from ``seat``: the cards it cannot see, dealt
    again among the other hands' hidden places and the stock."""
    other = deal.copy()
    view = deal.public_view(seat)
    hidden = list(view.unseen)
    rng.shuffle(hidden)
    for s in range(deal.players):
        if s == seat:
            continue
        keep = list(deal.known[s])
        free = len(deal.hands[s]) - len(keep)
        other.hands[s] = [hidden.pop() for _ in range(free)] + keep
    other.stock = hidden
    return other


@pytest.mark.parametrize("prof", PROFILES[::2], ids=lambda p: p.canonical())
def test_two_deals_that_look_the_same_give_the_same_samples(prof) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(prof.key)
    tried = 0
    for seed in range(6):
        for deal in positions(prof, seed, stops=3):
            seat = deal.turn
            other = twin(deal, seat, rng)
            assert other.hands != deal.hands or other.stock != deal.stock
            assert other.public_view(seat) == deal.public_view(seat)
            assert view_key(prof, other.public_view(seat)) == view_key(prof, deal.public_view(seat))
            mine = [state_to_json(s) for s in Sampler(prof, deal.public_view(seat)).samples(4, seed=9)]
            theirs = [state_to_json(s) for s in Sampler(prof, other.public_view(seat)).samples(4, seed=9)]
            assert mine == theirs
            tried += 1
    assert tried >= 10


def test_the_view_key_changes_with_anything_the_seat_knows() -> None:
    deal = Deal.new(profile("nepali-games"), 2)
    deal.play(heuristic.choose(deal, "medium"))
    view = deal.public_view(0)
    key = view_key(deal.profile, view)
    assert view_key(deal.profile, dataclasses.replace(view, stock_count=view.stock_count - 1)) != key
    assert view_key(deal.profile, dataclasses.replace(view, history=view.history[:-1])) != key
    assert view_key(profile("nepali-games", penalty=30), view) != key


def test_a_view_no_deal_matches_is_refused() -> None:
    deal = Deal.new(profile("dashain"), 1)
    view = deal.public_view(0)
    with pytest.raises(SamplerError, match="unseen cards cannot fill"):
        Sampler(deal.profile, dataclasses.replace(view, stock_count=view.stock_count + 1))
    with pytest.raises(SamplerError, match="own card count"):
        Sampler(deal.profile, dataclasses.replace(view, hand=view.hand[:-1]))
    botlevels.play_deal(deal, "medium")
    with pytest.raises(SamplerError, match="over"):
        Sampler(deal.profile, deal.public_view(0))


# -- uniform ------------------------------------------------------------------------------


def small_position() -> tuple[Deal, int]:
    """Seat 0 on turn; seat 1 holds 3 cards, one of them known (picked from the pile), seat 2
    holds 1; the stock holds 2 cards; everything else lies face up under the pile. Seat 0
    cannot place 5 cards: 2 + 1 hidden hand places and a stock of 2, in order."""
    p = profile("nepali-games", players=3)
    hands = [cards("A♠ 2♠ 3♠ 4♠ 5♠"), cards("6♠ 7♠ 8♠"), cards("9♠")]
    deal = from_position(p, hands=hands, pile=cards("10♠"), stock_top=cards("J♠ Q♠"), rest="pile", turn=0)
    deal.known[1] = [cards("8♠")[0]]
    return deal, 0


def consistent_deals(view: SeatView) -> list[tuple[frozenset[int], frozenset[int], tuple[int, ...]]]:
    """Every deal consistent with the small view: (seat 1's hidden cards, seat 2's, the stock in order)."""
    pool = view.unseen
    out = []
    for one in itertools.combinations(pool, 2):
        rest = [c for c in pool if c not in one]
        for two in itertools.combinations(rest, 1):
            left = [c for c in rest if c not in two]
            for stock in itertools.permutations(left):
                out.append((frozenset(one), frozenset(two), stock))
    return out


def chi2_sf(x: float, k: int) -> float:
    """The upper tail of the chi-square distribution with ``k`` degrees of freedom (series of the
    regularized lower incomplete gamma function)."""
    a = k / 2.0
    h = x / 2.0
    term = total = 1.0 / a
    n = 1
    while term > 1e-15 * total:
        term *= h / (a + n)
        total += term
        n += 1
    lower = math.exp(-h + a * math.log(h) - math.lgamma(a)) * total
    return max(0.0, 1.0 - lower)


def chi_square(counts: Counter[object], categories: list[object], n: int) -> float:
    expected = n / len(categories)
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in categories)


def tally(sampler: Sampler, n: int) -> Counter[object]:
    seen: Counter[object] = Counter()
    for sample in sampler.samples(n, seed="uniform"):
        one = frozenset(sample.hands[1]) - {cards("8♠")[0]}
        seen[(one, frozenset(sample.hands[2]), tuple(sample.stock))] += 1
    return seen


def test_chi_square_helper_matches_known_quantiles() -> None:
    assert chi2_sf(3.841, 1) == pytest.approx(0.05, abs=5e-4)
    assert chi2_sf(77.386, 59) == pytest.approx(0.055, abs=5e-3)
    assert chi2_sf(95.0, 59) < 0.01 < chi2_sf(80.0, 59)


def test_samples_are_uniform_among_every_consistent_deal() -> None:
    deal, seat = small_position()
    view = deal.public_view(seat)
    everything = consistent_deals(view)
    assert len(everything) == 60  # 5!/(2!·1!): two hidden cards for seat 1, one for seat 2, a stock of 2 in order
    n = 30_000
    seen = tally(Sampler(deal.profile, view), n)
    assert set(seen) <= set(everything)  # nothing inconsistent ...
    assert set(seen) == set(everything)  # ... and every consistent deal comes up
    p = chi2_sf(chi_square(seen, list(everything), n), len(everything) - 1)
    assert p > 0.001, f"chi-square p = {p:.2g}: the samples are not uniform"


def test_the_uniformity_test_catches_a_biased_shuffle(monkeypatch: pytest.MonkeyPatch) -> None:
    # the classic mistake: swap each place with any place, not only one not yet fixed
    def biased(self: Sampler, rng: random.Random) -> list[int]:
        order = list(self.pool)
        for i in range(len(order)):
            j = rng.randrange(len(order))
            order[i], order[j] = order[j], order[i]
        return order

    monkeypatch.setattr(Sampler, "order", biased)
    deal, seat = small_position()
    view = deal.public_view(seat)
    everything = consistent_deals(view)
    n = 30_000
    p = chi2_sf(chi_square(tally(Sampler(deal.profile, view), n), list(everything), n), len(everything) - 1)
    assert p < 1e-6
