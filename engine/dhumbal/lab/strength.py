"""How strong each bot level is: win shares over seeded deals, with their 95 % intervals.

One set of runs serves both places that report strength: ``make bench``
(``bench/expert_bench.py``) and the table on each rules page (the site's
``bot_strength`` module, which keeps the figures in a file checked into the
repository). For a profile, :func:`lineups` lists the tables measured: each
level against three hard bots, and the expert against the aggressive
reference bot, head to head and against three of it. The level measured
always sits in seat 0; the dealer moves one seat every deal
(:func:`dhumbal.lab.arena.play_table`), so no seat is favoured.

A deal with no named winner (a caught call in ``cardrulesplus``: the caller
scores the penalty, every other seat 0) is shared by the seats tied for its
best score (:mod:`dhumbal.lab.arena`), so ``wins`` may be a fraction: it is kept
exact (:class:`fractions.Fraction`, written ``"1234/3"`` in the figures file).

A share comes with its **Wilson score interval** at 95 % (:func:`wilson`):
it stays inside 0–1 and is sound for shares near either end, where the
textbook normal interval is not.

:func:`fingerprint` names the bots' *behaviour* rather than their code: it
hashes the transcripts of a run's first deals and the bots' settings
(:func:`tuning`). Stored figures with the same fingerprint as the engine in
hand came from bots with the same settings that play those deals exactly
alike, so a refactor that changes no move keeps them, and a change of how a
bot plays or of its settings shows at once (a setting can change later deals
only, as the expert's race term did).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, cast

from ..bots import expert, heuristic
from ..bots.botlevels import BOTS, DIFFICULTIES, Bot, play_deal
from ..core.profiles import Profile, find_profile
from ..play.deal import Deal
from ..play.records import transcript
from .arena import play_table

__all__ = ["Strength", "SEATS", "check_current", "dump", "fingerprint", "lineups", "load", "measure", "run_profile", "wilson", "Z95"]

#: Seats at the tables measured against three others.
SEATS: Final = 4
#: The normal quantile of a two-sided 95 % interval.
Z95: Final = 1.959963984540054
#: Deals whose transcripts make a run's fingerprint.
FINGERPRINT_DEALS: Final = 2
#: Settings of the bots' modules that bear on time, not on which move is chosen.
CLOCKS: Final = frozenset({"TIME_CAP", "CLOCK_EVERY"})


def tuning(lineup: Sequence[Bot] = BOTS, key: str | None = None) -> str:
    """Every setting of the modules that choose ``lineup``'s moves (their upper-case
    names, the clocks aside) and, with the expert at the table, the expert's tuning
    for profile ``key`` (:class:`dhumbal.core.profiles.BotTuning`), as text: part of
    each fingerprint, so that a change of tuning shows even when the first deals
    happen to play alike."""
    parts = []
    # Each module under a fixed label (the heuristic bots' is "bots", as it was named
    # when the stored fingerprints were taken): renaming a module changes no fingerprint.
    for label, module in (("bots", heuristic), ("expert", expert))[:2 if "expert" in lineup else 1]:
        for name in sorted(vars(module)):
            value = getattr(module, name)
            if name.isupper() and not name.startswith("_") and name not in CLOCKS and _plain(value):
                parts.append(f"{label}.{name}={value!r}")
    if "expert" in lineup and key is not None:
        parts.append(f"{key}.tuning={find_profile(key).tuning!r}")
    return ";".join(parts)


def _plain(value: object) -> bool:
    """A setting written as data (numbers, text, and tuples or dicts of them), whose text is the same in every run."""
    if isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, tuple):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return False


def wilson(wins: float | Fraction, deals: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``wins / deals`` (95 % by default; shared wins may be fractions)."""
    if deals < 1 or not 0 <= wins <= deals:
        raise ValueError(f"{wins} wins in {deals} deals is not a share")
    p = float(wins) / deals
    z2 = z * z
    centre = (p + z2 / (2 * deals)) / (1 + z2 / deals)
    half = z * math.sqrt(p * (1 - p) / deals + z2 / (4 * deals * deals)) / (1 + z2 / deals)
    return max(0.0, centre - half), min(1.0, centre + half)


def lineups() -> list[tuple[Bot, ...]]:
    """The tables measured for a profile, the level measured in seat 0."""
    rows: list[tuple[Bot, ...]] = [(level, "hard", "hard", "hard") for level in DIFFICULTIES]
    rows.append(("expert", "aggressive"))
    rows.append(("expert", "aggressive", "aggressive", "aggressive"))
    return rows


def table_profile(key: str, seats: int) -> Profile:
    """The profile ``key`` at its standard rules for ``seats`` players."""
    return find_profile(key).with_options(players=seats)


@dataclass(frozen=True)
class Strength:
    """Seat 0's wins at one table over ``deals`` seeded deals (a shared deal counting as its share)."""

    profile: str  # the profile key
    lineup: tuple[str, ...]
    deals: int
    wins: Fraction | int
    seed: str
    fingerprint: str

    @property
    def share(self) -> float:
        return float(self.wins) / self.deals

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.deals)

    def to_json(self) -> dict[str, object]:
        return {"profile": self.profile, "lineup": list(self.lineup), "deals": self.deals,
                "wins": int(self.wins) if Fraction(self.wins).denominator == 1 else str(Fraction(self.wins)),
                "seed": self.seed, "fingerprint": self.fingerprint}

    @classmethod
    def from_json(cls, data: object) -> Strength:
        """Read back :meth:`to_json` (``ValueError`` naming what is wrong)."""
        if not isinstance(data, dict):
            raise ValueError("a strength row must be an object")
        try:
            lineup = tuple(str(x) for x in data["lineup"])
            row = cls(str(data["profile"]), lineup, int(data["deals"]), _wins(data["wins"]), str(data["seed"]),
                      str(data["fingerprint"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"a strength row lacks or misstates a field: {exc}") from None
        if not 2 <= len(lineup) <= 6 or any(b not in BOTS for b in lineup):
            raise ValueError(f"a strength row names an unknown table: {','.join(lineup)}")
        if not 1 <= row.deals <= 10**7 or not 0 <= row.wins <= row.deals:
            raise ValueError(f"{row.wins} wins in {row.deals} deals is not a share")
        return row


def _wins(value: object) -> Fraction | int:
    """A row's wins: a whole number, or a fraction written ``"p/q"`` (digits only, so nothing can be huge)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    match = _FRACTION.fullmatch(value) if isinstance(value, str) else None
    if match is None or int(match[2]) == 0:
        raise ValueError(f'wins must be a whole number or a fraction like "7/3", not {value!r}')
    w = Fraction(int(match[1]), int(match[2]))
    return int(w) if w.denominator == 1 else w


_FRACTION: Final = re.compile(r"([0-9]{1,12})/([0-9]{1,6})")


def fingerprint(key: str, lineup: Sequence[Bot], seed: str, deals: int = FINGERPRINT_DEALS) -> str:
    """A hash of the transcripts of the first ``deals`` deals of a run (what the bots did)."""
    profile = table_profile(key, len(lineup))
    h = hashlib.sha256(f"{profile.canonical()}|{','.join(lineup)}|{seed}|{tuning(lineup, key)}".encode())
    for i in range(deals):
        deal = Deal.new(profile, f"{seed}/{i}", dealer=i % profile.players)  # as play_table deals them
        play_deal(deal, list(lineup))
        h.update(json.dumps(transcript(deal), sort_keys=True).encode())
    return h.hexdigest()[:16]


def measure(key: str, lineup: Sequence[Bot], deals: int, seed: str = "1") -> Strength:
    """Play ``deals`` seeded deals of ``lineup`` under ``key``'s standard rules: seat 0's wins."""
    result = play_table(table_profile(key, len(lineup)), list(lineup), deals, seed=seed)
    credit = result.seats[0].credit
    return Strength(key, tuple(lineup), deals, int(credit) if credit.denominator == 1 else credit, seed, fingerprint(key, lineup, seed))


def run_profile(key: str, deals: int, seed: str = "1") -> list[Strength]:
    """Every table of :func:`lineups` for profile ``key``."""
    return [measure(key, lineup, deals, seed) for lineup in lineups()]


#: The version of the stored figures' file format.
FILE_FORMAT: Final = 1


def dump(rows: Sequence[Strength]) -> str:
    """Rows as the text of a figures file (one row a line, in a fixed order: diffs stay small)."""
    ordered = sorted(rows, key=lambda r: (r.profile, _LINEUP_ORDER.get(r.lineup, 99), r.lineup))
    body = ",\n".join("  " + json.dumps(r.to_json(), sort_keys=True) for r in ordered)
    return f'{{"format": {FILE_FORMAT}, "rows": [\n{body}\n]}}\n'


def load(text: str, where: str) -> list[Strength]:
    """Read a figures file (``ValueError`` naming ``where`` and the row that is wrong)."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{where}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FILE_FORMAT or not isinstance(data.get("rows"), list):
        raise ValueError(f'{where}: expected {{"format": {FILE_FORMAT}, "rows": [...]}}')
    rows: list[Strength] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for i, item in enumerate(data["rows"], 1):
        try:
            row = Strength.from_json(item)
            find_profile(row.profile)
        except (ValueError, LookupError) as exc:
            raise ValueError(f"{where}: row {i}: {exc}") from None
        if (row.profile, row.lineup) in seen:
            raise ValueError(f"{where}: row {i}: {row.profile} {','.join(row.lineup)} is measured twice")
        seen.add((row.profile, row.lineup))
        rows.append(row)
    return rows


def check_current(rows: Sequence[Strength], where: str) -> None:
    """``ValueError`` unless each row's fingerprint is what today's bots give (its figures are theirs)."""
    for row in rows:
        now = fingerprint(row.profile, cast(tuple[Bot, ...], row.lineup), row.seed)
        if now != row.fingerprint:
            raise ValueError(
                f"{where}: {row.profile} {','.join(row.lineup)} was measured with bots that played differently "
                f"(fingerprint {row.fingerprint}, today {now}); measure again with `make strength`")


_LINEUP_ORDER: Final[dict[tuple[str, ...], int]] = {tuple(lineup): i for i, lineup in enumerate(lineups())}


def _measure_job(job: tuple[str, tuple[Bot, ...], int, str]) -> Strength:
    key, lineup, deals, seed = job
    return measure(key, lineup, deals, seed)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dhumbal.lab.strength --deals N --out FILE [--stale] [--workers N] [PROFILE ...]``: measure and
    write the figures file (with ``--stale``, only the tables whose stored fingerprint is not today's bots')."""
    import argparse
    import os
    import sys
    from pathlib import Path

    from ..core.profiles import PROFILE_KEYS

    ap = argparse.ArgumentParser(prog="python -m dhumbal.lab.strength", description="Measure every bot level's win share.")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--out", required=True, help="the figures file to write (rows of other profiles are kept)")
    ap.add_argument("--stale", action="store_true",
                    help="measure only the tables whose stored fingerprint is not today's bots' (or that are missing)")
    ap.add_argument("--workers", type=int, default=1, help="tables measured at once, one process each")
    ap.add_argument("profiles", nargs="*", metavar="PROFILE", help="the profiles to measure (all by default)")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    if args.workers < 1:
        ap.error("--workers must be at least 1")
    for key in args.profiles:
        if key not in PROFILE_KEYS:
            ap.error(f"{key!r} is not a profile; profiles are: {', '.join(PROFILE_KEYS)}")
    out = Path(args.out)
    keys = args.profiles or list(PROFILE_KEYS)
    stored = load(out.read_text(encoding="utf-8"), str(out)) if out.exists() else []
    rows = [r for r in stored if r.profile not in keys]
    todo: list[tuple[str, tuple[Bot, ...]]] = []
    for key in keys:
        for lineup in lineups():
            old = next((r for r in stored if r.profile == key and r.lineup == lineup), None)
            if (args.stale and old is not None and old.deals == args.deals and old.seed == args.seed
                    and old.fingerprint == fingerprint(key, lineup, args.seed)):
                rows.append(old)  # today's bots play it as they did: its figures stand
            else:
                todo.append((key, lineup))
    jobs = [(key, lineup, args.deals, args.seed) for key, lineup in todo]
    if args.workers > 1 and len(jobs) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            measured = list(pool.map(_measure_job, jobs))
    else:
        measured = [_measure_job(job) for job in jobs]
    for row in measured:
        low, high = row.interval()
        print(f"{row.profile:<15}{','.join(row.lineup):<40}{row.share:7.3f}  [{low:.3f}, {high:.3f}]  n={row.deals}",
              file=sys.stderr, flush=True)
        rows.append(row)
    scratch = out.with_name(f".{out.name}.{os.getpid()}")
    scratch.write_text(dump(rows), encoding="utf-8")
    os.replace(scratch, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
