"""A score-keeper for games played with real cards.

The players play at a real table and enter what happened, deal by deal: the turn-up, each
declaration, the trick points, who took the last trick and any penalty.  The keeper checks each
entry against the rules (it cannot see the hands, so it checks what it can: that the cards form
the meld under these rules and this trump, that no more copies of a card are in play than the
packs hold, and that cards already declared follow the meld-reuse rule), keeps the running
totals, settles each deal and says who won::

    >>> keeper = Keeper(Rules.preset("classic"), ["Ann", "Bob"])
    >>> keeper.new_deal(turn_up="7H")       # Ann deals; a seven turned gives her 10
    >>> keeper.declare("Bob", "bezique QS JD")
    40
    >>> keeper.tricks("Ann", brisques=9); keeper.tricks("Bob", brisques=7)
    >>> keeper.last_trick("Bob")
    >>> keeper.end_deal().totals
    [100, 120]

Every entry is appended to a JSON-lines journal (flushed and synced to disk at once) when a
path is given, and :meth:`Keeper.resume` rebuilds the keeper from it after a crash.  A bad entry
raises ``ValueError`` saying why and changes nothing; :meth:`Keeper.undo` takes back the last one.

Cards in a declaration are written as in the action notation (``QS``, ``10D``, ``TD``).  A card
that is already on the player's table from an earlier declaration is written ``QS@table``; a card
written plainly comes from the hand.  That is how the keeper applies the meld-reuse rules: a
bezique followed by ``double-bezique QS@table JD@table QS JD`` scores 500 more, but two
beziques cannot be turned into a double (no new card).
"""

from __future__ import annotations

import copy
import difflib
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.cards import (
    ACE,
    SUITS,
    code,
    pack,
    parse_card,
    rank_of,
    suit_of,
)
from ..core.melds import (
    MELDS,
    active_melds,
    meld_score,
)
from ..core.penalties import offences
from ..core.rules import Rules
from ..core.scoring import trick_values, trump_run_bonus, turn_up_bonus
from .declarations import Declarations
from .sheet import (
    _WILD,
    JOURNAL_FORMAT,
    JOURNAL_VERSION,
    DealSheet,
    _clip,
    _parse_line,
    _State,
    _write_line,
    describe,
)
from .tally import Tally


class Keeper(Declarations, Tally):
    """Keeps the score of a match played with real cards (see the module docstring).

    ``players``: a name per seat, in seat order (seats are numbered clockwise; in a partnership
    game seats 0 and 2 play against 1 and 3).  Wherever a seat is asked for, its number or its
    name (any case) will do.  ``path``: the journal file; it must not exist yet (continue an old
    one with :meth:`resume`).  ``handicap``: the score each side starts every game on, in a
    match of games with the "cent points" handicap (HAITIAN.md H32; default 0 each).

    The rules, the penalty scheme included, are fixed for the whole match: they are written in
    the journal's first line and checked against each new deal (a match cannot change its rules
    half-way; start a new match for other rules).
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str] | None = None,
        path: str | os.PathLike[str] | None = None,
        handicap: Sequence[int] | None = None,
    ) -> None:
        self.rules = rules
        self._rules_text = str(rules)
        n = rules.players
        names = [str(p).strip() for p in players] if players is not None else []
        if not names:
            names = [f"P{s + 1}" for s in range(n)]
        if len(names) != n:
            raise ValueError(f"{rules.name} needs {n} players: got {len(names)} names")
        for name in names:
            if not name or any(ch.isspace() for ch in name) or name.isdigit():
                raise ValueError(
                    f"bad player name {name!r}: a name is one word, not a number (e.g. Ann)"
                )
        if len({name.lower() for name in names}) != n:
            raise ValueError(f"player names must differ: got {', '.join(names)}")
        self.players: list[str] = names
        sides = rules.sides
        self.handicap: tuple[int, ...] = tuple(handicap) if handicap else (0,) * sides
        if len(self.handicap) != sides or not all(
            isinstance(h, int) and not isinstance(h, bool) and 0 <= h < rules.target
            for h in self.handicap
        ):
            raise ValueError(
                f"the handicap is {sides} whole numbers from 0 to under the target "
                f"({rules.target}): got {handicap!r}"
            )
        self.path: Path | None = None
        self.warnings: list[str] = []
        """Problems found (and got round) when resuming a journal."""
        self._entries: list[dict[str, Any]] = []
        self._state = _State()
        counts = Counter(getattr(rules, "pack_kinds", None) or pack(rules.packs))
        self._copies: dict[int, int] = dict(counts)
        if path is not None:
            p = Path(path)
            if p.exists() and p.stat().st_size > 0:
                raise ValueError(
                    f"the journal {p} already exists: continue it with resume (--resume), or "
                    "choose another file"
                )
            header = {
                "format": JOURNAL_FORMAT,
                "version": JOURNAL_VERSION,
                "rules": str(rules),
                "players": names,
            }
            if any(self.handicap):
                header["handicap"] = list(self.handicap)
            self.path = p
            try:
                with p.open("w", encoding="utf-8") as f:
                    _write_line(f, header)
            except OSError:
                self.path = None
                raise

    # --- reading the state ---------------------------------------------------------------------
    @property
    def deals(self) -> list[DealSheet]:
        """Every deal so far, the current one last."""
        return self._state.deals

    @property
    def deal(self) -> DealSheet | None:
        """The deal being entered (None before the first deal and between deals)."""
        deals = self._state.deals
        return deals[-1] if deals and not deals[-1].over else None

    @property
    def entries(self) -> list[dict[str, Any]]:
        """Every entry in force, as written to the journal (undone ones left out)."""
        return [dict(e) for e in self._entries]

    @property
    def side_names(self) -> list[str]:
        """A name per scoring side (partners' names joined with &)."""
        r = self.rules
        return [
            " & ".join(self.players[s] for s in range(r.players) if r.side_of(s) == side)
            for side in range(r.sides)
        ]

    @property
    def next_dealer(self) -> int:
        """Who deals next if no dealer is named: the seat left of the last dealer (seat 0
        first)."""
        deals = self._state.deals
        return (deals[-1].dealer + 1) % self.rules.players if deals else 0

    def seat(self, who: int | str) -> int:
        """A seat from its number or its player's name (any case); ValueError if unknown."""
        n = self.rules.players
        if isinstance(who, bool):
            raise ValueError(f"unknown player {who!r}")
        if isinstance(who, int):
            if 0 <= who < n:
                return who
            raise ValueError(f"unknown seat {who}: seats are 0 to {n - 1} ({self._who()})")
        text = str(who).strip()
        if text.isdigit() and int(text) < n:
            return int(text)
        low = text.lower()
        for s, name in enumerate(self.players):
            if name.lower() == low:
                return s
        starts = [s for s, name in enumerate(self.players) if low and name.lower().startswith(low)]
        if len(starts) == 1:
            return starts[0]
        raise ValueError(f"unknown player {text!r}: the players are {self._who()}")

    def _who(self) -> str:
        return ", ".join(f"{name} ({s})" for s, name in enumerate(self.players))

    def melds(self) -> list[tuple[str, int]]:
        """The declarations these rules score, with their points (before trump is fixed a
        trump-fixing double marriage may score differently)."""
        r = self.rules
        out = [(MELDS[m].name, meld_score(r, m)) for m in active_melds(r)]
        if r.trump_double_marriage and not r.turn_up:
            out.append(("double-royal-marriage (fixing trump)", r.trump_double_marriage))
        if r.seven_of_trumps:
            out.append(("seven", r.seven_of_trumps))
        swap = getattr(r, "turn_up_exchange", "seven")
        if r.turn_up and swap == "seven" and r.seven_of_trumps:
            out.append(("exchange (the seven of trumps)", r.seven_of_trumps))
        elif r.turn_up and swap == "nine":
            out.append(("exchange (the nine of trumps)", 0))
        if r.two_trump_sevens:
            out.append(("two-sevens", r.two_trump_sevens))
        if r.carte_blanche:
            out.append(("carte-blanche", r.carte_blanche))
        return out

    def offences(self) -> dict[str, tuple[int | None, str]]:
        """The penalties of these rules' ``penalty_scheme`` (empty for ``none``): the core's
        :func:`~bezique.core.penalties.offences`."""
        return offences(self.rules)

    # --- entries -------------------------------------------------------------------------------
    def new_deal(self, turn_up: str | None = None, dealer: int | str | None = None) -> None:
        """Start the next deal.  ``turn_up``: the card turned up (needed, and only allowed,
        where the rules turn one up); ``dealer``: who dealt (default: left of the last dealer)."""
        entry: dict[str, Any] = {"type": "deal", "rules": self._rules_text}
        if turn_up is not None:
            entry["turn_up"] = turn_up
        if dealer is not None:
            entry["dealer"] = self.seat(dealer)
        self._record(entry)

    def declare(self, seat: int | str, text: str) -> int:
        """Record a declaration such as ``bezique QS JD``, ``royal-marriage KH QH``, ``seven 7H``,
        ``exchange 7H`` or ``carte-blanche`` (a leading ``meld`` is allowed, and so are spaces
        for hyphens: ``royal marriage KH QH``).  Returns the points scored."""
        self._record({"type": "declare", "seat": self.seat(seat), "text": str(text)})
        return self.deals[-1].declarations[-1].points

    def tricks(
        self, seat: int | str, points: int | None = None, *, brisques: int | None = None
    ) -> None:
        """Record the points a side made in tricks this deal (it replaces an earlier entry for
        the side): ``points``, or ``brisques``, the number of aces and tens won (10 each),
        where the rules count brisques."""
        if (points is None) == (brisques is None):
            raise ValueError("give either the trick points or the number of brisques")
        entry: dict[str, Any] = {"type": "tricks", "seat": self.seat(seat)}
        if points is not None:
            entry["points"] = points
        else:
            entry["brisques"] = brisques
        self._record(entry)

    def last_trick(self, seat: int | str) -> None:
        """Record who took the last trick of the deal (it replaces an earlier entry)."""
        self._record({"type": "last-trick", "seat": self.seat(seat)})

    def penalty(
        self,
        seat: int | str,
        offence: str,
        points: int | None = None,
        to: int | str | None = None,
    ) -> int:
        """Record an offence under the rules' ``penalty_scheme`` (:data:`OFFENCES`).
        ``points``: for a Victorian revoke, the brisques still to be won; ``to``: under the
        Victorian scheme, the one opponent who gains (default: every opposing side).  Returns
        the points the offender's side loses (Russian) or each opponent gains (Victorian)."""
        entry: dict[str, Any] = {
            "type": "penalty",
            "seat": self.seat(seat),
            "offence": str(offence).strip().lower(),
        }
        if points is not None:
            entry["points"] = points
        if to is not None:
            entry["to"] = self.seat(to)
        self._record(entry)
        return self._last_penalty

    def end_deal(self) -> DealSheet:
        """End the deal: its totals count, per-deal games are settled, and the match is
        decided if a side has won.  Returns the finished sheet."""
        self._record({"type": "end"})
        return self.deals[-1]

    def undo(self) -> str:
        """Take back the last entry in force; returns what it was, in words."""
        if not self._entries:
            raise ValueError("nothing to undo")
        entries = self._entries[:-1]
        undone = self._entries[-1]
        state = self._replay(entries)
        self._append_journal({"type": "undo"})
        self._state, self._entries = state, entries
        return describe(undone, self.players)

    # --- journal ---------------------------------------------------------------------------------
    @classmethod
    def resume(cls, path: str | os.PathLike[str]) -> Keeper:
        """Rebuild a keeper from its journal and go on writing to it.  A last line cut short by
        a crash is reported in :attr:`warnings` and dropped from the file; any other damage is
        a ValueError naming the line."""
        p = Path(path)
        try:
            raw = p.read_bytes()
        except OSError as e:
            raise ValueError(f"cannot read the journal {p}: {e.strerror or e}") from None
        lines = raw.split(b"\n")
        complete = raw.endswith(b"\n")
        # lines[-1] is b"" when the file ends with a newline, else the unfinished last line
        body, tail = lines[:-1], lines[-1]
        records: list[tuple[int, dict[str, Any]]] = []
        warnings: list[str] = []
        keep = len(raw)
        for i, line in enumerate(body, 1):
            if not line.strip():
                continue
            rec = _parse_line(line)
            if rec is None:
                if i == len(body) and not tail.strip():
                    warnings.append(f"line {i} of {p} is damaged (a crash while writing?): ignored")
                    keep = len(raw) - len(line) - 1
                    continue
                raise ValueError(f"{p}: line {i} is not a journal entry: {_clip(line)}")
            records.append((i, rec))
        if tail.strip():
            rec = _parse_line(tail)
            if rec is None:
                warnings.append(
                    f"the last line of {p} was cut short (a crash while writing?): ignored"
                )
                keep = len(raw) - len(tail)
            else:
                records.append((len(body) + 1, rec))
        if not records:
            what = "holds no journal entry" if raw.strip() else "is empty"
            raise ValueError(f"{p} {what}: it is not a score-keeper journal")
        _, header = records[0]
        if header.get("format") != JOURNAL_FORMAT:
            raise ValueError(f"{p} is not a score-keeper journal (no {JOURNAL_FORMAT} header)")
        if header.get("version") != JOURNAL_VERSION:
            raise ValueError(f"{p}: journal version {header.get('version')} is not supported")
        try:
            rules = Rules.from_string(str(header["rules"]))
            keeper = cls(rules, list(header["players"]), handicap=header.get("handicap"))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{p}: bad journal header: {e}") from None
        entries: list[dict[str, Any]] = []
        for lineno, rec in records[1:]:
            if rec.get("type") == "undo":
                if not entries:
                    raise ValueError(f"{p}: line {lineno} undoes an entry that is not there")
                entries.pop()
                continue
            entries.append(rec)
        try:
            keeper._state = keeper._replay(entries, source=p)
        except ValueError as e:
            raise ValueError(str(e)) from None
        keeper._entries = entries
        try:
            if keep < len(raw):
                with p.open("r+b") as f:
                    f.truncate(keep)
                    f.flush()
                    os.fsync(f.fileno())
            elif not complete:
                with p.open("ab") as f:
                    f.write(b"\n")
                    f.flush()
                    os.fsync(f.fileno())
        except OSError as e:
            raise ValueError(f"cannot write to the journal {p}: {e.strerror or e}") from None
        keeper.path = p
        keeper.warnings = warnings
        return keeper

    def _record(self, entry: dict[str, Any]) -> None:
        """Apply an entry; on success keep it and write it to the journal."""
        if str(self.rules) != self._rules_text:
            raise ValueError(
                f"the rules of a match cannot change once it has begun (it is played as "
                f"{self._rules_text}, not {self.rules}): start a new match for other rules"
            )
        state = copy.deepcopy(self._state)
        saved = self._state
        self._state = state
        try:
            self._apply(entry)
            self._append_journal(entry)
        except BaseException:
            self._state = saved
            raise
        self._entries.append(entry)

    def _append_journal(self, entry: dict[str, Any]) -> None:
        if self.path is None:
            return
        with self.path.open("a", encoding="utf-8") as f:
            _write_line(f, entry)

    def _replay(self, entries: list[dict[str, Any]], source: Path | None = None) -> _State:
        saved = self._state
        self._state = _State()
        try:
            for i, entry in enumerate(entries, 1):
                try:
                    self._apply(entry)
                except (ValueError, TypeError, KeyError) as e:
                    where = f"{source}: entry {i}" if source else f"entry {i}"
                    raise ValueError(f"{where} ({describe(entry, self.players)}): {e}") from None
            return self._state
        finally:
            state, self._state = self._state, saved
            del state

    # --- applying entries ------------------------------------------------------------------------
    def _apply(self, entry: dict[str, Any]) -> None:
        kind_ = entry.get("type")
        handler = {
            "deal": self._do_deal,
            "declare": self._do_declare,
            "tricks": self._do_tricks,
            "last-trick": self._do_last_trick,
            "penalty": self._do_penalty,
            "end": self._do_end,
        }.get(str(kind_))
        if handler is None:
            raise ValueError(f"unknown entry type {kind_!r}")
        if self._state.winner is not None:
            raise ValueError(
                f"the match is over: {self.side_names[self._state.winner]} won "
                "(undo the last entry to change it)"
            )
        handler(entry)

    def _current(self) -> DealSheet:
        sheet = self.deal
        if sheet is None:
            n = len(self._state.deals)
            raise ValueError(
                "no deal in progress: start one with a deal entry"
                + (f" (deal {n} is over)" if n else "")
            )
        return sheet

    def _entry_seat(self, entry: dict[str, Any]) -> int:
        seat = entry.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ValueError(f"bad seat {seat!r}")
        return self.seat(seat)

    def _do_deal(self, entry: dict[str, Any]) -> None:
        r, st = self.rules, self._state
        if self.deal is not None:
            raise ValueError(f"deal {len(st.deals)} is not over yet: end it first")
        played_as = entry.get("rules")
        if played_as is not None and played_as != self._rules_text:
            raise ValueError(
                f"this deal was entered under the rules {played_as}, but the journal's header "
                f"says {self._rules_text}: a match keeps its rules (was the header edited?)"
            )
        dealer = entry.get("dealer")
        dealer = self.next_dealer if dealer is None else self.seat(dealer)
        n, sides = r.players, r.sides
        game = self.game_sheets()  # the earlier deals of this game
        sheet = DealSheet(
            number=len(st.deals) + 1,
            dealer=dealer,
            turn_up=None,
            trump=None,
            melds=[0] * sides,
            tricks=[0] * sides,
            brisques=[0] * sides,
            last_trick=[0] * sides,
            bonuses=[0] * sides,
            penalties=[0] * sides,
            tables=[[] for _ in range(n)],
            carry=self.game_scores_before(),
            # no-further-points: a side that offended earlier in the game scores nothing more
            caps=[
                0 if any(s.caps[side] is not None for s in game) else None for side in range(sides)
            ],
        )
        up_text = entry.get("turn_up")
        if r.turn_up:
            if up_text is None:
                raise ValueError("these rules turn up a card for trump: say which card was turned")
            up = parse_card(str(up_text))
            if up == _WILD:
                raise ValueError("a wild card cannot be the turn-up: the next card is turned")
            sheet.turn_up = code(up)
            sheet.trump = SUITS[suit_of(up)]
            sheet.turn_up_now = up
        elif up_text is not None:
            raise ValueError(
                "these rules have no turn-up: trump is fixed by the first marriage declared"
            )
        sheet.log.append(
            f"deal {sheet.number}: {self.players[dealer]} deals"
            + (f", turns up {sheet.turn_up}" if sheet.turn_up else "")
        )
        if sheet.turn_up_now is not None:
            self._turn_up_bonus(sheet, sheet.turn_up_now)
        st.deals.append(sheet)
        self._three_in_a_row(sheet)

    def _turn_up_bonus(self, sheet: DealSheet, up: int) -> None:
        r, dealer = self.rules, sheet.dealer
        bonus = turn_up_bonus(r, up, dealer)
        for seat, points in bonus:
            sheet.bonuses[r.side_of(seat)] += points
        if len(bonus) > 1:
            sheet.log.append(f"{self.players[dealer]} turned up a seven: +10, each opponent -5")
        elif bonus and rank_of(up) == ACE:
            sheet.log.append(f"{self.players[dealer]} turned up the trump ace: +{bonus[0][1]}")
        elif bonus:
            sheet.log.append(f"{self.players[dealer]} turned up a seven: +10")

    def _three_in_a_row(self, sheet: DealSheet) -> None:
        """Greek club: the same trump three deals running gives the dealer +20 (clubs -20)."""
        points = trump_run_bonus(self.rules, [d.trump for d in self._state.deals[-3:]])
        if points:
            sheet.bonuses[self.rules.side_of(sheet.dealer)] += points
            sheet.log.append(
                f"the same trump three deals running: {self.players[sheet.dealer]} {points:+d}"
            )

    # --- tricks, last trick, penalties ------------------------------------------------------------
    def _do_tricks(self, entry: dict[str, Any]) -> None:
        r = self.rules
        sheet = self._current()
        seat = self._entry_seat(entry)
        side = r.side_of(seat)
        scoring = r.trick_scoring
        if scoring == "none":
            raise ValueError(f"tricks score nothing in this game ({r.name}): nothing to enter")
        count, points = entry.get("brisques"), entry.get("points")
        for value in (count, points):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise ValueError(f"trick points are a whole number: got {value!r}")
        majority = scoring == "brisque-majority"  # settled at the end of the deal
        if count is not None:
            if scoring not in ("brisques", "brisque-majority"):
                raise ValueError(
                    f"this game counts {scoring.replace('-', ' ')}, not brisques: enter the points"
                )
            if count < 0:
                raise ValueError(f"the number of brisques cannot be negative: got {count}")
            points = count * 10
        if points is None:
            raise ValueError("give the trick points or the number of brisques")
        if points < 0:
            raise ValueError(f"trick points cannot be negative: got {points}")
        pack_kinds = [k for k, n in self._copies.items() for _ in range(n) if k != _WILD]
        per_rank, per_trick = trick_values(r)
        most = per_trick * r.tricks + sum(per_rank[rank_of(k)] for k in pack_kinds)
        if scoring in ("brisques", "brisque-majority", "greek-per-trick") and points % 10:
            raise ValueError(f"trick points here go in tens: got {points}")
        column = sheet.brisques if r.brisques_only_to_settle or majority else sheet.tricks
        others = sum(column) - column[side]
        if others + points > most:
            raise ValueError(
                f"the tricks of a deal hold {most} points, and {others} are entered for the "
                f"other side{'s' if r.sides > 2 else ''}: {points} more is too many"
            )
        column[side] = points
        label = "brisques (to settle)" if r.brisques_only_to_settle else "tricks"
        if majority:
            label = "brisques (the majority settles at the end)"
        sheet.log.append(f"{self.side_names[side]}: {label} {points}")

    def _do_last_trick(self, entry: dict[str, Any]) -> None:
        r = self.rules
        sheet = self._current()
        seat = self._entry_seat(entry)
        before = sheet.last_trick_seat
        if before == seat:
            raise ValueError(
                f"{self.players[seat]} already took the last trick of this deal: there is one "
                "last trick"
            )
        sheet.last_trick = [0] * r.sides
        sheet.last_trick[r.side_of(seat)] = r.last_trick_bonus
        sheet.last_trick_seat = seat
        instead = "" if before is None else f" (in place of {self.players[before]})"
        sheet.log.append(f"{self.players[seat]}: last trick +{r.last_trick_bonus}{instead}")

    _last_penalty: int = 0

    def _do_penalty(self, entry: dict[str, Any]) -> None:
        r = self.rules
        sheet = self._current()
        seat = self._entry_seat(entry)
        scheme = r.penalty_scheme
        table = self.offences()
        if not table:
            raise ValueError(
                "this match is kept without penalties (penalty_scheme=none), and its rules "
                "stay as they began; for penalties start a new match with "
                "--option penalty_scheme=russian or victorian"
            )
        offence = str(entry.get("offence", ""))
        if offence not in table:
            hint = difflib.get_close_matches(offence, list(table), 1)
            raise ValueError(
                f"unknown offence {offence!r}"
                + (f" (did you mean {hint[0]!r}?)" if hint else "")
                + f"; {scheme} offences: {', '.join(table)}"
            )
        fixed, _meaning = table[offence]
        given = entry.get("points")
        to = entry.get("to")
        side = r.side_of(seat)
        who = self.players[seat]
        if given is not None and (
            not isinstance(given, int) or isinstance(given, bool) or given < 0
        ):
            raise ValueError(f"penalty points are a whole number, not negative: got {given!r}")
        if scheme == "russian":
            if given is not None or to is not None:
                raise ValueError(
                    f"a Russian {offence} costs a fixed amount: give no points and no beneficiary"
                )
            if fixed is None:  # the whole score back to 0
                before = 0 if self.per_deal else self.scores[side]
                points = -(before + sheet.totals[side])
                sheet.penalties[side] += points
                sheet.log.append(f"{who}: {offence}, score back to 0 ({points:+d})")
            else:
                points = fixed
                sheet.penalties[side] += points
                sheet.log.append(f"{who}: {offence} {points:+d}")
            self._last_penalty = points
            return
        if scheme == "no-further-points":
            if given is not None or to is not None:
                raise ValueError(
                    "under no-further-points a penalty takes no points and no beneficiary"
                )
            # the points made so far stay; from now on the side's deal total cannot grow
            now = sheet.totals[side]
            cap = sheet.caps[side]
            sheet.caps[side] = now if cap is None else min(cap, now)
            sheet.log.append(f"{who}: {offence}, {self.side_names[side]} scores nothing more")
            self._last_penalty = 0
            return
        # victorian: the opponents gain
        if fixed is None:
            if given is None:
                raise ValueError(
                    f"a Victorian {offence} gives the opponent the brisques still to be won: "
                    "enter their points"
                )
            points = given
        else:
            if given is not None:
                raise ValueError(f"a Victorian {offence} is worth {fixed}: give no points")
            points = fixed
        if to is not None:
            gainer = self.seat(to)
            if r.side_of(gainer) == side:
                raise ValueError(f"{self.players[gainer]} is on the offender's side")
            gainers = [r.side_of(gainer)]
        else:
            gainers = [s for s in range(r.sides) if s != side]
        for g in gainers:
            sheet.penalties[g] += points
        names = ", ".join(self.side_names[g] for g in gainers)
        sheet.log.append(f"{who}: {offence}, {names} +{points}")
        self._last_penalty = points
