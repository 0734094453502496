"""Declarations entered at a real table: checked against the rules and the cards already
in play, then scored (the meld rules are core's: :mod:`bezique.core.melds`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..core.cards import (
    NINE,
    SEVEN,
    SUIT_NAMES,
    SUITS,
    code,
    kind,
    suit_of,
)
from ..core.melds import (
    FOUR_WILD_CARDS,
    MARRIAGE,
    MELD_BY_NAME,
    ROYAL_MARRIAGE,
    SEVEN_MELD,
    TRIPLE_BEZIQUE,
    TRUMP_FIXING,
    TRUMP_SEQUENCE,
    TWO_SEVENS,
    blocked_masks,
    declarable_melds,
    slots,
    wild_card_melds,
)
from ..core.rules import Rules
from ..core.scoring import meld_points
from .sheet import (
    _WILD,
    DealSheet,
    Declaration,
    _describe_ways,
    _does,
    _mask_names,
    _match_slots,
    _ref_text,
    _reuse_rule,
    parse_declaration,
)

_UPGRADES = {
    MELD_BY_NAME[big].id: small
    for big, small in (
        ("double-bezique", "bezique"),
        ("triple-bezique", "bezique"),
        ("quadruple-bezique", "bezique"),
        ("quintuple-bezique", "bezique"),
        ("double-marriage", "marriage"),
        ("double-royal-marriage", "royal marriage"),
    )
}
"""Melds that repeat a smaller one, with its name (what the @table cards were scored as)."""


class Declarations:
    """The declaration entries of a :class:`~bezique.keeper.Keeper`."""

    rules: Rules
    players: list[str]
    _copies: dict[int, int]

    if TYPE_CHECKING:  # the keeper's own, used here

        @property
        def side_names(self) -> list[str]: ...
        def melds(self) -> list[tuple[str, int]]: ...
        def _current(self) -> DealSheet: ...
        def game_sheets(self) -> list[DealSheet]: ...
        def _entry_seat(self, entry: dict[str, Any]) -> int: ...
        def _target_reached(self, sheet: DealSheet) -> None: ...

    # --- declarations ------------------------------------------------------------------------------
    def _do_declare(self, entry: dict[str, Any]) -> None:
        sheet = self._current()
        seat = self._entry_seat(entry)
        name, refs = parse_declaration(str(entry.get("text", "")), [m for m, _ in self.melds()])
        if name == "exchange":
            self._exchange(sheet, seat, refs)
        elif name == "carte-blanche":
            self._carte_blanche(sheet, seat, refs)
        else:
            self._meld(sheet, seat, name, refs)
        self._target_reached(sheet)

    def _meld(self, sheet: DealSheet, seat: int, name: str, refs: list[tuple[int, bool]]) -> None:
        r = self.rules
        meld = MELD_BY_NAME[name].id
        trump = None if sheet.trump is None else SUITS.index(sheet.trump)
        where = self._trump_words(sheet)
        only_marriage = trump is None and r.melds_before_trump == "marriage-only"
        if only_marriage and meld == MARRIAGE:  # the first marriage fixes trump: a royal one
            meld, name = ROYAL_MARRIAGE, "royal-marriage"
        allowed = set(declarable_melds(r, trump is not None))
        # a seven of trumps is entered as a declaration however it scored, and a seven
        # entered before trump is fixed is told so (below: no way to form it)
        if r.seven_of_trumps:
            allowed.add(SEVEN_MELD)
        if r.two_trump_sevens:
            allowed.add(TWO_SEVENS)
        if only_marriage and meld not in allowed:
            raise ValueError(
                f"before trump is fixed only a marriage may be declared here, not a {name}: "
                "the first marriage (any suit) fixes trump, e.g. marriage KH QH"
            )
        if meld not in allowed:
            if trump is None and meld == TRUMP_SEQUENCE:
                raise ValueError(
                    "a trump sequence cannot be declared before a marriage has fixed trump"
                )
            raise ValueError(
                f"a {name} scores nothing in this game ({r.name}); it scores: "
                + ", ".join(m for m, _ in self.melds())
            )
        ways = list(slots(r, meld, trump))
        if not ways:
            if trump is None:
                raise ValueError(
                    f"trump is not fixed yet, so there is no {name}: the first marriage fixes "
                    "trump and is entered as royal-marriage (e.g. royal-marriage KH QH)"
                )
            raise ValueError(f"a {name} cannot be formed {where}")
        kinds = [k for k, _ in refs]
        wilds = sum(1 for k in kinds if k == _WILD) if meld != FOUR_WILD_CARDS else 0
        if wilds and meld not in wild_card_melds(r):
            raise ValueError(f"a joker (wild card) cannot stand in for a card of a {name} here")
        if wilds > 1:
            raise ValueError("a wild card may stand in for one card of a meld, not more")
        chosen = _match_slots(ways, kinds, wilds)
        if chosen is None:
            shown = " ".join(_ref_text(k, t) for k, t in refs) or "no cards"
            raise ValueError(
                f"{shown} do not form a {name} {where}: a {name} is " + _describe_ways(ways)
            )
        if wilds and wilds == len(kinds) and meld != FOUR_WILD_CARDS:
            raise ValueError("a meld needs at least one real card besides the wild card")
        # copies of one card: no more than the pack holds, in one meld and in the deal
        per_kind = Counter(kinds)
        for k, n in per_kind.items():
            if not self._copies.get(k, 0):
                raise ValueError(f"there is no {code(k)} in the pack of this game")
            if n > self._copies.get(k, 0):
                raise ValueError(
                    f"there are only {self._copies.get(k, 0)} {code(k)} in the pack: "
                    f"a meld cannot hold {n}"
                )
        fresh = Counter(k for k, on_table in refs if not on_table)
        if not fresh and meld in _UPGRADES:
            # RULES.md C24: two single beziques (marriages) scored one by one never make a
            # double: a declaration needs a new card
            single = _UPGRADES[meld]
            raise ValueError(
                f"a {name} needs at least one new card from the hand: the {single}s already "
                f"on {self.players[seat]}'s table were scored one by one, and no new card "
                f"turns them into a {name}"
            )
        if not fresh:
            raise ValueError(
                "every declaration must put at least one new card from the hand on the table "
                "(cards written @table are already there)"
            )
        # cards from the table: one of the seat's declared copies that may score in this meld
        block = blocked_masks(r)[meld]
        if r.meld_reforming:
            block &= ~(1 << meld)  # a meld may form again once one of its cards is played
        table = sheet.tables[seat]
        picks: list[int] = []
        for k, on_table in refs:
            if not on_table:
                continue
            copies = [i for i, (ck, _) in enumerate(table) if ck == k and i not in picks]
            if not copies:
                raise ValueError(
                    f"{self.players[seat]} has no {code(k)} on the table in these records "
                    f"(write {code(k)} without @table for a card from the hand)"
                )
            free = [i for i in copies if not table[i][1] & block]
            if k == _WILD and r.meld_reuse == "once-per-kind":
                free = [i for i in copies if not table[i][1]]  # a joker scores once a deal
            if meld == TRUMP_SEQUENCE and r.sequence_needs_marriage:
                married = [i for i in free if table[i][1] >> ROYAL_MARRIAGE & 1]
                free = married or free
            if not free:
                used_in = _mask_names(table[copies[0]][1])
                raise ValueError(
                    f"the {code(k)} on {self.players[seat]}'s table has already scored in "
                    f"{used_in}, so it cannot score in a {name}: {_reuse_rule(r)}"
                )
            picks.append(min(free, key=lambda i: (bin(table[i][1]).count("1"), i)))
        if not r.meld_reforming:
            for k, n in fresh.items():
                held = sheet.used.get(k, 0) + (1 if sheet.turn_up_now == k else 0)
                if held + n > self._copies.get(k, 0):
                    if sheet.turn_up_now == k:
                        what = f"{held - 1} already declared and one under the stock"
                    else:
                        what = f"{held} already declared"
                    raise ValueError(
                        f"there are only {self._copies.get(k, 0)} {code(k)} in the pack and "
                        f"{what} this deal: if a {code(k)} of this meld is already on "
                        f"{self.players[seat]}'s table, write it {code(k)}@table"
                    )
        if meld == TRUMP_SEQUENCE and r.sequence_needs_marriage:
            # the quinte adds A 10 J of trumps to the declarer's own royal marriage on the
            # table (HAITIAN.md H08)
            married = [i for i in picks if table[i][1] >> ROYAL_MARRIAGE & 1]
            if len(married) < 2:
                assert trump is not None
                letter = SUITS[trump]
                raise ValueError(
                    f"a {name} here adds A 10 J of trumps to {self.players[seat]}'s own royal "
                    f"marriage on the table: write its K and Q as K{letter}@table Q{letter}@table"
                )
        fixes_trump = trump is None and meld in TRUMP_FIXING
        # the engine's own scoring (core.scoring.meld_points), from what the sheet knows
        points = meld_points(
            r,
            meld,
            [table[i][1] for i in picks] + [0] * sum(fresh.values()),
            fixes_trump=fixes_trump,
            repeats=sum(1 for d in sheet.declarations if d.seat == seat and d.meld == name),
            # first_bezique pays for the first bezique of the game (HAITIAN.md H07)
            beziques_before=sum(
                1 for s in self.game_sheets() for d in s.declarations if d.meld == "bezique"
            ),
        )
        if fixes_trump:
            suit = next(suit_of(k) for k in kinds if k != _WILD)
            sheet.trump = SUITS[suit]
        bit = 1 << meld
        for i in picks:
            table[i][1] |= bit
        for k, on_table in refs:
            if not on_table:
                table.append([k, bit])
        for k, n in fresh.items():
            sheet.used[k] = sheet.used.get(k, 0) + n
        side = r.side_of(seat)
        sheet.melds[side] += points
        cards = tuple(_ref_text(k, t) for k, t in refs)
        sheet.declarations.append(Declaration(seat, name, cards, points))
        note = ""
        if trump is None and sheet.trump is not None:
            note = f" (trump is now {SUIT_NAMES[SUITS.index(sheet.trump)]})"
        sheet.log.append(f"{self.players[seat]}: {name} {' '.join(cards)} +{points}{note}")
        if meld == TRIPLE_BEZIQUE and r.triple_bezique_wins_game:
            sheet.wins_game = side
            sheet.log.append(f"a triple bezique: {_does(self.side_names[side], 'win')} the match")

    def _exchange(self, sheet: DealSheet, seat: int, refs: list[tuple[int, bool]]) -> None:
        r = self.rules
        swap = getattr(r, "turn_up_exchange", "seven")
        rank = {"seven": SEVEN, "nine": NINE}.get(swap)
        if not r.turn_up or rank is None or (rank == SEVEN and not r.seven_of_trumps):
            raise ValueError("there is no exchange for the turn-up in this game")
        assert sheet.trump is not None and sheet.turn_up_now is not None
        card = kind(SUITS.index(sheet.trump), rank)
        if len(refs) != 1 or refs[0][0] != card or refs[0][1]:
            raise ValueError(
                f"only the {code(card)} from the hand may be exchanged for the turn-up: "
                f"write exchange {code(card)}"
            )
        if sheet.exchanged or sheet.turn_up_now == card:
            raise ValueError(f"the turn-up is already the {code(card)}: only one exchange a deal")
        if sheet.used.get(card, 0) + 1 > self._copies.get(card, 0):
            raise ValueError(
                f"there are only {self._copies.get(card, 0)} {code(card)} in the pack and "
                "they have all been declared this deal"
            )
        sheet.exchanged = True
        sheet.turn_up_now = card
        points = r.seven_of_trumps if rank == SEVEN else 0
        side = r.side_of(seat)
        sheet.melds[side] += points
        sheet.declarations.append(Declaration(seat, "exchange", (code(card),), points))
        sheet.log.append(
            f"{self.players[seat]}: exchange {code(card)} for {sheet.turn_up} +{points}"
        )

    def _carte_blanche(self, sheet: DealSheet, seat: int, refs: list[tuple[int, bool]]) -> None:
        r = self.rules
        if not r.carte_blanche:
            raise ValueError(f"carte blanche scores nothing in this game ({r.name})")
        if refs:
            raise ValueError("carte blanche is written without cards: carte-blanche")
        shown = [d for d in sheet.declarations if d.meld == "carte-blanche"]
        if shown and not r.carte_blanche_repeat:
            raise ValueError(
                f"carte blanche scores once a deal here, and {self.players[shown[0].seat]} "
                "has scored it"
            )
        points = r.carte_blanche
        sheet.melds[r.side_of(seat)] += points
        sheet.declarations.append(Declaration(seat, "carte-blanche", (), points))
        sheet.log.append(f"{self.players[seat]}: carte blanche +{points}")

    def _trump_words(self, sheet: DealSheet) -> str:
        if sheet.trump is None:
            return "before trump is fixed"
        return f"with {SUIT_NAMES[SUITS.index(sheet.trump)]} trumps"
