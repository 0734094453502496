"""The rules of a game of bezique: one frozen value holding every option, with named presets.

Option names are the camelCase keys of RULES.md in snake_case (``meldReuse`` -> ``meld_reuse``);
string values are lowercase and hyphenated (``higherScoreOnly`` -> ``'higher-score-only'``).
A meld worth ``0`` points is not part of the game.  ``str(rules)`` gives the preset name followed
by the options that differ from it, and :meth:`Rules.from_string` reads that back::

    >>> r = Rules.preset("classic", target=1500)
    >>> str(r)
    'classic(target=1500)'
    >>> Rules.from_string(str(r)) == r
    True
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from .cards import RANKS, pack, shown
from .ids import action_ids
from .percache import per_rules
from .presets import ALIASES, BY_PLAYERS, PRESETS


def _opt(default: Any, doc: str, choices: tuple[str, ...] = ()) -> Any:
    return field(default=default, metadata={"doc": doc, "choices": choices})


@dataclass(frozen=True)
class Rules:
    """Every rule option of a game of bezique.  Build one with :meth:`preset`."""

    name: str = field(default="classic", compare=False, metadata={"doc": "preset name"})

    # --- table and cards -------------------------------------------------------------------
    players: int = _opt(2, "number of players (seats)")
    packs: int = _opt(2, "32-card piquet packs shuffled together")
    hand_size: int = _opt(8, "cards dealt to each player and kept through stage 1")
    partnerships: bool = _opt(False, "seats 0 and 2 play against 1 and 3, one score per side")
    dealer_sits_out: bool = _opt(False, "the dealer takes no cards and sits the deal out")
    pack_ranks: str = _opt("ATKQJ987", "the ranks of each pack (A T K Q J 9 8 7 is a piquet pack)")
    extra_nines: int = _opt(0, "nines added to the packs, spread over the suits (old Russian)")
    wild_cards: int = _opt(0, "suitless wild cards (XX) that stand for any card in a meld")
    wild_card_melds: str = _opt(
        "any",
        "the melds a wild card may complete, one wild card a meld: any; quartets (four aces, "
        "kings, queens, jacks or tens of any suits, not the trump quartets); all but the "
        "sequences",
        ("any", "quartets", "all-but-sequence"),
    )
    four_wild_cards: int = _opt(0, "four wild cards declared together as one meld")
    wild_card_lead_wins: bool = _opt(
        False, "a wild card led wins the trick unless a trump is played to it (else it never wins)"
    )
    deal_packets: tuple[int, ...] = _opt((3, 2, 3), "packets in which the cards are dealt")
    turn_up: bool = _opt(True, "the card after the deal is turned up and fixes trump")
    turn_up_bonus: str = _opt(
        "seven",
        "dealer bonus for the turn-up: none; seven (a 7 gives the dealer 10); greek-club "
        "(black trump ace +20, red +12, a 7 gives the dealer +10 and the others -5)",
        ("none", "seven", "greek-club"),
    )
    melds_before_trump: str = _opt(
        "all-but-sequence",
        "without a turn-up, what may be declared before trump is fixed: every meld but a "
        "sequence (a marriage, or a sequence where allowed, fixes trump); or a marriage only "
        "(Haitian)",
        ("all-but-sequence", "marriage-only"),
    )
    sequence_fixes_trump: bool = _opt(
        False, "without a turn-up, a sequence declared before any marriage fixes trump too"
    )
    trump_double_marriage: int = _opt(
        0, "without a turn-up, a double marriage (K K Q Q) that fixes trump scores this"
    )
    first_lead_seat: str = _opt(
        "left", "who leads the first trick: the dealer's left or right", ("left", "right")
    )

    # --- play --------------------------------------------------------------------------------
    stage1_must_follow_suit: bool = _opt(
        False, "while the stock lasts, the follower must follow suit if able"
    )
    stage2_must_head: bool = _opt(
        True, "in the last tricks a follower must beat the winning card if able"
    )
    stage2_must_trump: bool = _opt(
        True, "in the last tricks a follower void in the suit led must trump"
    )
    stage2_wild_card: str = _opt(
        "discard",
        "in the last tricks a wild card is a card of no suit: played when the player cannot "
        "follow suit or trump (discard), or only when it is the last kind of card he holds "
        "(last-resort)",
        ("discard", "last-resort"),
    )
    play_out_hand: bool = _opt(
        True, "after the stock is drawn the hands are played out (else the hand ends there)"
    )
    reveal_last_draw: bool = _opt(
        False, "the winner of the last stage-1 trick shows the card drawn from the stock"
    )
    draw_order: str = _opt(
        "winner-first",
        "who draws first after a stage-1 trick, the others following clockwise: the trick's "
        "winner; or the player who led it (seed 001)",
        ("winner-first", "leader-first"),
    )

    # --- declaring ---------------------------------------------------------------------------
    min_tricks_before_declaring: int = _opt(
        0, "tricks a player must have won before declaring at all"
    )
    exchange_before_min_tricks: bool = _opt(
        False,
        "the seven of trumps may be exchanged after any trick won, before "
        "min_tricks_before_declaring allows declaring (the exchange is no meld; seed 001)",
    )
    melds_scored_per_trick: int = _opt(1, "melds that may be scored after one trick won")
    declare_only_after_beating: bool = _opt(
        False, "only a player who beat a card played before his (not the leader) may declare"
    )
    repeat_doubles: bool = _opt(
        False,
        "each further royal marriage, bezique and trump sequence a player declares in a hand "
        "scores double the one before (old Russian)",
    )
    sequence_bezique_jack: bool = _opt(
        False, "the bezique jack may stand in for the trump jack in a trump sequence"
    )
    partner_declaring: str = _opt(
        "winner-only",
        "in a partnership game, who may declare after a trick: the winner only, or the winner "
        "or (if the winner hands it over) the winner's partner",
        ("winner-only", "winner-or-partner"),
    )
    meld_reforming: bool = _opt(
        False,
        "a meld may score again once one of its cards has been played and a like card is "
        "added (Rubicon)",
    )
    meld_reuse: str = _opt(
        "by-class",
        "by-class: a card may score again in a meld of another class (marriages and sequences; "
        "beziques; quartets), and within a class only in a higher meld; higher-score-only: a "
        "card may score again only in a meld of another kind that scores more; "
        "once-per-kind: a card scores once per kind of meld (marriages; beziques; sequences; "
        "the quartets of each rank, plain and trump alike) and a wild card in one meld only",
        ("by-class", "higher-score-only", "once-per-kind"),
    )
    bezique_pairing: str = _opt(
        "spade-queen-diamond-jack",
        "which cards form a bezique: always Q♠ J♦; trump queen with the jack of the "
        "opposite colour; trump queen with the jack of the same colour",
        ("spade-queen-diamond-jack", "opposite-colour", "same-colour"),
    )
    quartet_distinct_suits: bool = _opt(False, "four aces/kings/queens/jacks need four suits")
    sequence_needs_marriage: bool = _opt(
        False,
        "a trump sequence is the A 10 J of trumps added to the declarer's own royal marriage "
        "on the table, neither card of it played (Haitian quinte)",
    )

    # --- meld scores (0 = not played) --------------------------------------------------------
    common_marriage: int = _opt(20, "K+Q of a plain suit")
    royal_marriage: int = _opt(40, "K+Q of trumps")
    bezique: int = _opt(40, "bezique (Q♠ J♦)")
    first_bezique: int = _opt(
        0, "the first bezique declared in a game scores this instead (0: as any other)"
    )
    double_bezique: int = _opt(500, "both beziques on the table together")
    triple_bezique: int = _opt(0, "three beziques on the table together")
    quadruple_bezique: int = _opt(0, "four beziques on the table together")
    quintuple_bezique: int = _opt(0, "five beziques on the table together")
    four_aces: int = _opt(100, "any four aces")
    four_kings: int = _opt(80, "any four kings")
    four_queens: int = _opt(60, "any four queens")
    four_jacks: int = _opt(40, "any four jacks")
    four_tens: int = _opt(0, "any four tens")
    four_trump_aces: int = _opt(0, "four aces of trumps")
    four_trump_tens: int = _opt(0, "four tens of trumps")
    four_trump_kings: int = _opt(0, "four kings of trumps")
    four_trump_queens: int = _opt(0, "four queens of trumps")
    four_trump_jacks: int = _opt(0, "four jacks of trumps")
    five_trump_aces: int = _opt(0, "five aces of trumps")
    five_trump_tens: int = _opt(0, "five tens of trumps")
    five_trump_kings: int = _opt(0, "five kings of trumps")
    five_trump_queens: int = _opt(0, "five queens of trumps")
    five_trump_jacks: int = _opt(0, "five jacks of trumps")
    six_trump_aces: int = _opt(0, "a sixth ace of trumps added to five shown")
    six_trump_tens: int = _opt(0, "a sixth ten of trumps added to five shown")
    six_trump_kings: int = _opt(0, "a sixth king of trumps added to five shown")
    six_trump_queens: int = _opt(0, "a sixth queen of trumps added to five shown")
    six_trump_jacks: int = _opt(0, "a sixth jack of trumps added to five shown")
    seven_trump_aces: int = _opt(0, "a seventh ace of trumps added to six shown")
    seven_trump_tens: int = _opt(0, "a seventh ten of trumps added to six shown")
    seven_trump_kings: int = _opt(0, "a seventh king of trumps added to six shown")
    seven_trump_queens: int = _opt(0, "a seventh queen of trumps added to six shown")
    seven_trump_jacks: int = _opt(0, "a seventh jack of trumps added to six shown")
    eight_trump_aces: int = _opt(0, "an eighth ace of trumps added to seven shown")
    eight_trump_tens: int = _opt(0, "an eighth ten of trumps added to seven shown")
    eight_trump_kings: int = _opt(0, "an eighth king of trumps added to seven shown")
    eight_trump_queens: int = _opt(0, "an eighth queen of trumps added to seven shown")
    eight_trump_jacks: int = _opt(0, "an eighth jack of trumps added to seven shown")
    four_bezique_jacks: int = _opt(0, "four bezique jacks")
    five_bezique_jacks: int = _opt(0, "a fifth bezique jack added to four shown")
    six_bezique_jacks: int = _opt(0, "a sixth bezique jack added to five shown")
    seven_bezique_jacks: int = _opt(0, "a seventh bezique jack added to six shown")
    eight_bezique_jacks: int = _opt(0, "an eighth bezique jack added to seven shown")
    trump_set_scoring: str = _opt(
        "whole",
        "sets of five or more trump cards of a rank (or bezique jacks): whole: each set scores "
        "its own value; cumulative: the fifth to eighth card each add their amount, so a set "
        "shown at once scores the four and every card beyond it (old Russian, RULES.md 2.8)",
        ("whole", "cumulative"),
    )
    trump_sequence: int = _opt(250, "A 10 K Q J of trumps")
    plain_sequence: int = _opt(0, "A 10 K Q J of a plain suit (extra meld)")
    double_common_marriage: int = _opt(0, "K K Q Q of a plain suit as one meld (extra meld)")
    double_royal_marriage: int = _opt(0, "K K Q Q of trumps as one meld (extra meld)")
    triple_common_marriage: int = _opt(0, "K K K Q Q Q of a plain suit as one meld")
    triple_royal_marriage: int = _opt(0, "K K K Q Q Q of trumps as one meld")
    two_trump_sevens: int = _opt(0, "both sevens of trumps as one meld (extra meld)")
    carte_blanche: int = _opt(
        0,
        "a hand without K, Q or J scores this, shown automatically (extra meld); once a deal, "
        "to the first player found with one after the deal or a draw",
    )
    carte_blanche_repeat: bool = _opt(
        False,
        "carte blanche only for the hand as dealt, but it scores again for each non-court card "
        "its holder draws, until a court card is drawn (Rubicon)",
    )

    # --- seven of trumps ---------------------------------------------------------------------
    seven_of_trumps: int = _opt(10, "a seven of trumps declared or exchanged for the turn-up")
    turn_up_exchange: str = _opt(
        "seven",
        "the trump card that may be exchanged for the turn-up: the seven (scoring "
        "seven_of_trumps), a nine (no score; old Russian), or none",
        ("seven", "nine", "none"),
    )
    seven_exchange_counts_as_meld: bool = _opt(
        True, "exchanging the seven is that trick's declaration"
    )
    second_seven_scores: str = _opt(
        "declare",
        "when a seven of trumps that was not exchanged scores: declared after winning a "
        "trick; played to a stage-1 trick; winning a stage-1 trick; play-always: for the "
        "player who plays it, in any trick once trump is fixed; capture: for the taker of "
        "any trick it is in, once trump is fixed",
        ("declare", "play", "win-trick", "play-always", "capture"),
    )

    # --- scoring -----------------------------------------------------------------------------
    trick_scoring: str = _opt(
        "brisques",
        "points from tricks: brisques (10 per ace and ten won); card-points (A 11, 10 10, "
        "K 4, Q 3, J 2); greek-per-trick (10 per trick plus 10 per ace or ten in it); "
        "brisque-majority (two sides: the side with more brisques scores 10 each and the "
        "other loses brisque_loser_penalty, a tie gives both brisque_tie_bonus; Haitian); none",
        ("brisques", "card-points", "greek-per-trick", "brisque-majority", "none"),
    )
    brisque_min_score: int = _opt(
        200,
        "brisque-majority: a side gains or loses by the brisques only if its game score, the "
        "last trick included, is at least this",
    )
    brisque_loser_penalty: int = _opt(200, "brisque-majority: lost by the side with fewer")
    brisque_tie_bonus: int = _opt(160, "brisque-majority: gained by each side on a tie")
    brisque_timing: str = _opt(
        "end-of-hand",
        "when brisques or card points are added: at the end of the hand, or as tricks are won",
        ("end-of-hand", "immediate"),
    )
    last_trick_bonus: int = _opt(10, "points for winning the last trick of the hand")
    target: int = _opt(1000, "the match is won by reaching this score (checked after a hand)")
    target_check: str = _opt(
        "end-of-hand",
        "when the target is checked: at the end of the hand; or immediate (a side reaching it "
        "by a meld or a seven ends the hand at once, without last trick or brisques)",
        ("end-of-hand", "immediate"),
    )
    score_floor_zero: bool = _opt(False, "a game score never goes below 0")
    match_games: int = _opt(
        0,
        "games to 'cent points': a game won adds 1 to the winner's count (2 en bas table) "
        "and sets the losers' to 0; a count reaching this wins the match (0: one game)",
    )
    double_game_below: int = _opt(
        0, "a game won with every loser under this score counts double: en bas table (0: never)"
    )
    cent_points_handicap: int = _opt(
        0, "the loser of a match starts each game of the next on this score, until he wins one"
    )
    both_reach_target: str = _opt(
        "last-trick-winner",
        "who wins when several sides reach the target: the taker of the last trick, or the "
        "higher score (ties: the last trick)",
        ("last-trick-winner", "higher-score"),
    )
    triple_bezique_wins_game: bool = _opt(False, "a triple bezique wins the match outright")
    penalty_scheme: str = _opt(
        "none",
        "penalties for irregularities at a real-card table, kept by the score-keeper (the "
        "engine itself never allows one): russian (points taken from the offender); victorian "
        "(points given to the opponents); no-further-points (the offender keeps the points he "
        "has but scores no more in the game; seed 000-C)",
        ("none", "russian", "victorian", "no-further-points"),
    )
    extra_card_penalty: int = _opt(
        50, "russian penalties: points taken for drawing an extra card (50; 60 in seed 000)"
    )
    show_stock_count: bool = _opt(True, "players may see how many cards the stock holds")
    deal_scoring: str = _opt(
        "cumulative",
        "cumulative: deals add up to the target; per-deal: each deal is a game, paid out with "
        "the game bonus or the rubicon",
        ("cumulative", "per-deal"),
    )
    brisques_only_to_settle: bool = _opt(
        False,
        "per-deal games: brisques count only to break a tie or to escape the rubicon (and then "
        "for both players)",
    )
    game_bonus: int = _opt(500, "per-deal games: the winner scores this plus the difference")
    rubicon_threshold: int = _opt(1000, "per-deal games: a loser under this is rubiconed")
    rubicon_bonus: int = _opt(
        1000, "per-deal games: a rubicon pays this plus both scores plus the brisque bonus"
    )
    rubicon_brisque_bonus: int = _opt(320, "per-deal games: added to a rubicon for the brisques")
    small_loser_bonus: int = _opt(
        100, "per-deal games: extra for the winner when the loser has under 100"
    )
    round_to_hundreds: bool = _opt(
        False, "per-deal games: fractions of 100 are dropped unless needed to decide the winner"
    )

    # ------------------------------------------------------------------------------------------
    _PRESETS: ClassVar[dict[str, dict[str, Any]]] = PRESETS
    _BY_PLAYERS: ClassVar[dict[str, dict[int, str | dict[str, Any]]]] = BY_PLAYERS
    _ALIASES: ClassVar[dict[str, str]] = ALIASES
    # RULES.md's switch names for the extra melds, with the scores they switch on.
    _SWITCHES: ClassVar[dict[str, dict[str, int]]] = {
        "two_trump_sevens": {"two_trump_sevens": 20},
        "double_marriage": {"double_common_marriage": 40, "double_royal_marriage": 80},
        "triple_marriages": {"triple_common_marriage": 100, "triple_royal_marriage": 300},
        "plain_sequence": {"plain_sequence": 100},
        "carte_blanche": {"carte_blanche": 250},
    }
    _RENAMED: ClassVar[dict[str, str]] = {"target_score": "target"}
    # The range of every whole-number option, checked before anything is built from it: the
    # presets stay well inside, and a value out of range (a hundred million wild cards) is
    # refused here, so the server, the records and the command line all refuse it too.
    # Options not named are points (meld scores, bonuses, thresholds): 0 to MAX_POINTS.
    MAX_POINTS: ClassVar[int] = 100_000
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "players": (2, 4),
        "packs": (1, 12),
        "hand_size": (1, 24),
        "extra_nines": (0, 24),
        "wild_cards": (0, 8),
        "min_tricks_before_declaring": (0, 100),
        "extra_card_penalty": (0, 1000),
        "melds_scored_per_trick": (1, 10),
        "target": (1, 1_000_000),
        "match_games": (0, 100),
    }

    @classmethod
    def option_range(cls, name: str) -> tuple[int, int] | None:
        """The lowest and highest value a whole-number option takes (None: not a number)."""
        known = {f.name: f for f in fields(cls)}
        if name not in known or type(known[name].default) is not int:
            return None
        return cls._RANGES.get(name, (0, cls.MAX_POINTS))

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name == "name":
                continue
            value = getattr(self, f.name)
            choices = f.metadata.get("choices", ())
            if choices and value not in choices:
                raise ValueError(
                    f"option {f.name} must be one of {', '.join(choices)}: got {shown(value)}"
                )
            want = type(f.default)
            if want is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"option {f.name} must be a whole number: got {shown(value)}")
            if want is bool and not isinstance(value, bool):
                raise ValueError(f"option {f.name} must be true or false: got {shown(value)}")
            if want is int:
                low, high = self._RANGES.get(f.name, (0, self.MAX_POINTS))
                if not low <= value <= high:
                    raise ValueError(f"option {f.name} must be {low} to {high}: got {shown(value)}")
            if want is tuple and (
                not isinstance(value, tuple)
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            ):
                raise ValueError(
                    f"option {f.name} must be a list of whole numbers such as (3,2,3): "
                    f"got {shown(value)}"
                )
            if want is tuple and len(value) > self._RANGES["hand_size"][1]:
                most = self._RANGES["hand_size"][1]
                raise ValueError(
                    f"option {f.name} must have at most {most} packets: got {len(value)}"
                )
        if self.partnerships and self.players != 4:
            raise ValueError("partnerships need 4 players")
        if (
            not self.pack_ranks
            or any(r not in RANKS for r in self.pack_ranks)
            or len(set(self.pack_ranks)) != len(self.pack_ranks)
        ):
            raise ValueError(
                f"pack_ranks must be distinct ranks from {RANKS}: got {shown(self.pack_ranks)}"
            )
        if self.dealer_sits_out and (self.players < 3 or self.partnerships):
            raise ValueError("dealer_sits_out needs 3 or 4 players and no partnerships")
        active = self.active_players
        stock = self.cards - active * self.hand_size
        if stock < active or (self.play_out_hand and stock % active):
            raise ValueError(
                f"{self.packs} packs with {self.players} hands of {self.hand_size} leave "
                f"{stock} cards to draw, which the players cannot share out evenly"
            )
        if sum(self.deal_packets) != self.hand_size or min(self.deal_packets, default=0) < 1:
            raise ValueError(
                f"deal_packets {shown(self.deal_packets)} must be positive and add up to the hand "
                f"size {self.hand_size}"
            )
        if self.trick_scoring == "brisque-majority" and self.sides != 2:
            raise ValueError("trick_scoring brisque-majority needs two sides")
        if self.match_games and self.deal_scoring == "per-deal":
            raise ValueError("match_games counts games to a target: not with per-deal scoring")
        if self.deal_scoring == "per-deal" and self.sides != 2:
            raise ValueError("per-deal scoring (a deal is a game) needs two sides")

    # --- derived -----------------------------------------------------------------------------
    @property
    def active_players(self) -> int:
        """Players who take cards in a deal (one fewer when the dealer sits out)."""
        return self.players - 1 if self.dealer_sits_out else self.players

    @property
    def sides(self) -> int:
        """Number of scoring sides: teams in a partnership game, else seats."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat (seats 0 and 2 are side 0 in a partnership game)."""
        return seat % 2 if self.partnerships else seat

    @property
    def pack_kinds(self) -> tuple[int, ...]:
        """The card kind of every card of the whole pack, in pack order."""
        return _pack_kinds(self)

    @property
    def cards(self) -> int:
        """Cards in the whole pack."""
        return len(self.pack_kinds)

    @property
    def stock_cards(self) -> int:
        """Cards left to draw after the deal, the turn-up included."""
        return self.cards - self.active_players * self.hand_size

    @property
    def stage1_tricks(self) -> int:
        """Tricks played while the stock lasts (the last round of draws may be short when
        the hand is not played out)."""
        return -(-self.stock_cards // self.active_players)

    @property
    def tricks(self) -> int:
        """Tricks (rounds) in a whole hand."""
        return self.stage1_tricks + (self.hand_size if self.play_out_hand else 0)

    @property
    def num_actions(self) -> int:
        """The size of the fixed action-id space (:mod:`bezique.core.ids`)."""
        return action_ids(self).num_actions

    # --- presets and options -------------------------------------------------------------------
    @classmethod
    def presets(cls) -> list[str]:
        """Names of the presets, the default first."""
        return list(cls._PRESETS)

    @classmethod
    def option_names(cls) -> list[str]:
        """Every option name, in the order of the dataclass."""
        return [f.name for f in fields(cls) if f.name != "name"]

    @classmethod
    def option_docs(cls) -> dict[str, str]:
        """Each option's meaning, with its allowed values where they are words."""
        out = {}
        for f in fields(cls):
            if f.name == "name":
                continue
            doc = f.metadata["doc"]
            if f.metadata["choices"]:
                doc += f" [{' | '.join(f.metadata['choices'])}]"
            out[f.name] = doc
        return out

    @classmethod
    def preset(cls, name: str = "classic", **options: Any) -> Rules:
        """A preset by name (case-insensitive, aliases allowed), with options changed by name."""
        key = name.strip().lower().replace("_", "-")
        key = cls._ALIASES.get(key, key)
        if key not in cls._PRESETS:
            hint = difflib.get_close_matches(key, list(cls._PRESETS) + list(cls._ALIASES), 1)
            raise ValueError(
                f"unknown preset {shown(name)}"
                + (f" (did you mean {hint[0]!r}?)" if hint else "")
                + f"; presets: {', '.join(cls._PRESETS)}"
            )
        base = cls(name=key, **cls._preset_values(key, options.get("players")))
        return base.replace(**options) if options else base

    @classmethod
    def _preset_values(cls, key: str, players: Any = None) -> dict[str, Any]:
        by_players = cls._BY_PLAYERS.get(key)
        if by_players is None:
            return cls._PRESETS[key]
        extra = by_players.get(players if isinstance(players, int) else 2, {})
        if isinstance(extra, str):  # the base game for that player count, then the preset
            return {**cls._PRESETS[extra], **cls._PRESETS[key]}
        return {**cls._PRESETS[key], **extra}

    def replace(self, **options: Any) -> Rules:
        """A copy with options changed by name; unknown names and bad values raise ValueError.

        A new hand size given without its deal packets is dealt in threes."""
        values = self._normalise(options)
        self._check_ranges(values)  # before anything is built from a number (the packets)
        size = values.get("hand_size")
        if (
            isinstance(size, int)
            and size > 0
            and "deal_packets" not in values
            and sum(self.deal_packets) != size
        ):
            values["deal_packets"] = (3,) * (size // 3) + ((size % 3,) if size % 3 else ())
        return dataclasses.replace(self, **values)

    @classmethod
    def _check_ranges(cls, values: Mapping[str, Any]) -> None:
        """Refuse a whole number out of its option's range, as :meth:`__post_init__` would,
        but before a value is built from it (the deal packets of a hand size)."""
        for name, value in values.items():
            span = cls.option_range(name)
            if span is None or isinstance(value, bool) or not isinstance(value, int):
                continue  # not a whole-number option, or not a number: the full check says
            low, high = span
            if not low <= value <= high:
                raise ValueError(f"option {name} must be {low} to {high}: got {shown(value)}")

    @classmethod
    def _normalise(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        known = {f.name: f for f in fields(cls) if f.name != "name"}
        out: dict[str, Any] = {}
        for raw, value in options.items():
            opt = raw.replace("-", "_").lower()
            opt = cls._RENAMED.get(opt, opt)
            if isinstance(value, bool) and opt in cls._SWITCHES:
                for target, score in cls._SWITCHES[opt].items():
                    out[target] = score if value else 0
                continue
            if opt not in known:
                hint = difflib.get_close_matches(opt, list(known) + list(cls._SWITCHES), 1)
                raise ValueError(
                    f"unknown rule option {shown(raw)}"
                    + (f" (did you mean {hint[0]!r}?)" if hint else "")
                    + "; `bezique rules --options` lists them"
                )
            if isinstance(value, str) and known[opt].metadata["choices"]:
                value = value.strip().lower().replace("_", "-")
            if isinstance(value, list):
                value = tuple(value)
            out[opt] = value
        return out

    def differences(self) -> dict[str, Any]:
        """Options whose value differs from this rule set's preset."""
        known = self.name in self._PRESETS
        # a preset played "as the base game for that player count" takes its other defaults
        # from that count, so only the count itself needs saying
        plain = type(self)(name=self.name, **(self._preset_values(self.name) if known else {}))
        base = type(self)(
            name=self.name, **(self._preset_values(self.name, self.players) if known else {})
        )
        out = {}
        for f in fields(self):
            ref = plain if f.name == "players" else base
            if f.name != "name" and getattr(self, f.name) != getattr(ref, f.name):
                out[f.name] = getattr(self, f.name)
        return out

    def __str__(self) -> str:
        return _text(self)  # worked out once: every observation string carries it

    @classmethod
    def from_string(cls, text: str) -> Rules:
        """Read ``name`` or ``name(option=value,...)``, as written by ``str(rules)``.

        The same text read again gives the same (frozen) value, so the tables kept on it
        (:mod:`bezique.core.percache`) are built once, not once per position string read.

        Text longer than :data:`MAX_RULES_TEXT` or nested deeper than :data:`MAX_DEPTH` is
        refused before it is read: the work of reading is linear in the length."""
        if len(text) > MAX_RULES_TEXT:
            raise ValueError(
                f"a rules string has at most {MAX_RULES_TEXT} characters: got {len(text)}"
            )
        rules = _PARSED.get(text)
        if rules is None:
            rules = cls._parse(text)
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            _PARSED[text] = rules
        return rules

    @classmethod
    def _parse(cls, text: str) -> Rules:
        t = text.strip()
        _check_nesting(t)
        if "(" not in t:
            return cls.preset(t)
        if not t.endswith(")"):
            raise ValueError(f"bad rules string {shown(text)}: expected name(option=value,...)")
        name, _, body = t[:-1].partition("(")
        options: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in _split_args(body))):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise ValueError(f"bad option {shown(part)}: expected option=value")
            options[key.strip()] = _parse_value(value.strip())
        return cls.preset(name, **options)


# rules values read from text, by that text (bounded: texts come from records and clients)
_PARSED: dict[str, Rules] = {}
_PARSED_MAX = 256

MAX_RULES_TEXT = 4096
"""Longest rules string read (every option changed at once takes about 3,000 characters)."""
MAX_DEPTH = 16
"""Deepest nesting of parentheses in a rules string (the rules need two: ``x(deal_packets=(3,2,3))``).
Within it reading is linear in the length: each level looks at the text inside it once."""


def _check_nesting(text: str) -> None:
    """One pass over the text: parentheses balanced and at most :data:`MAX_DEPTH` deep."""
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise ValueError(f"bad rules string: parentheses nested deeper than {MAX_DEPTH}")
        elif ch == ")":
            depth -= 1
            if depth < 0:
                break
    if depth:
        raise ValueError("bad rules string: unbalanced parentheses")


def _split_args(body: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "(" + ",".join(_fmt(v) for v in value) + ")"
    return str(value)


def _parse_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if text.startswith("(") and text.endswith(")"):
        return tuple(_parse_value(p.strip()) for p in _split_args(text[1:-1]) if p.strip())
    try:
        return int(text)
    except ValueError:
        return text


@per_rules
def _pack_kinds(rules: Rules) -> tuple[int, ...]:
    return tuple(pack(rules.packs, rules.pack_ranks, rules.extra_nines, rules.wild_cards))


@per_rules
def _text(rules: Rules) -> str:
    diff = rules.differences()
    if not diff:
        return rules.name
    return f"{rules.name}({','.join(f'{k}={_fmt(v)}' for k, v in diff.items())})"
