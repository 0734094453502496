"""The rules of a game in plain words, written from a :class:`~bezique.core.rules.Rules` value.

Every number comes from the rules value itself, so ``bezique rules classic`` and
``bezique rules classic --option target=1500`` tell the truth about the game that will be played.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..core.cards import ACE, HEARTS, RANKS, SEVEN, SPADES, kind
from ..core.melds import MELDS, meld_score
from ..core.rules import Rules
from ..core.scoring import turn_up_bonus

_PAIRING = {
    "spade-queen-diamond-jack": "the queen of spades and the jack of diamonds, whatever is trump",
    "opposite-colour": "the queen of trumps and the jack of the suit of the other colour "
    "(spades: J♦, hearts: J♣, diamonds: J♠, clubs: J♥)",
    "same-colour": "the queen of trumps and the jack of the other suit of the same colour "
    "(spades: J♣, hearts: J♦, diamonds: J♥, clubs: J♠)",
}


def meld_rows(rules: Rules) -> list[tuple[str, str, int]]:
    """(meld name, what it is, points) for every meld that scores under these rules."""
    docs = Rules.option_docs()
    rows = []
    for m in MELDS:
        if m.klass == "S" and m.name == "seven":
            continue  # told apart, with the exchange
        try:
            points = meld_score(rules, m.id)
        except AttributeError:
            continue
        if points <= 0:
            continue
        what = docs.get(m.score_option, "").split(" [")[0].replace(" (extra meld)", "")
        if m.name == "bezique":
            what = _PAIRING.get(rules.bezique_pairing, what)
        rows.append((m.name.replace("-", " "), what, points))
    return rows


_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _n(count: int, word: str, capital: bool = False) -> str:
    number = _WORDS[count] if 0 <= count < len(_WORDS) else str(count)
    if capital:
        number = number[:1].upper() + number[1:]
    return f"{number} {word}" + ("" if count == 1 else "s")


def rules_sections(rules: Rules) -> list[tuple[str, list[str]]]:
    """The rules as (heading, sentences) sections."""
    r = rules
    out: list[tuple[str, list[str]]] = []

    # players and cards
    players = _n(r.players, "player", True)
    if r.partnerships:
        players += ", in two partnerships: seats 0 and 2 against seats 1 and 3"
    stock = r.stock_cards - (1 if r.turn_up else 0)
    out.append(("Players and cards", [players + ".", *_cards(r), _dealt(r, stock)]))

    # trump
    trump: list[str] = []
    if r.turn_up:
        trump.append(
            "The next card is turned face up and its suit is trump. The stock lies across it, "
            "so it is the last card drawn."
        )
        if r.wild_cards:
            trump.append(
                "A wild card has no suit: turned up, it goes back into the stock at a random "
                "place and the next card is turned."
            )
        bonus = r.turn_up_bonus
        # the numbers are the core's (scoring.turn_up_bonus), read off a sample turn-up
        seven = turn_up_bonus(r, kind(SPADES, SEVEN), 0)
        if bonus == "seven":
            trump.append(f"If the turn-up is a seven, the dealer scores {seven[0][1]} at once.")
        elif bonus == "greek-club":
            black = turn_up_bonus(r, kind(SPADES, ACE), 0)[0][1]
            red = turn_up_bonus(r, kind(HEARTS, ACE), 0)[0][1]
            trump.append(
                f"Turn-up bonuses: a black ace gives the dealer {black}, a red ace {red}; a seven "
                f"gives the dealer {seven[0][1]} and every other player {seven[-1][1]}."
            )
    else:
        fix = "the first marriage"
        if r.sequence_fixes_trump:
            fix += " or sequence"
        trump.append(f"There is no turn-up: {fix} declared fixes the trump suit.")
        if r.melds_before_trump == "marriage-only":
            trump.append(
                "Until then a marriage (any suit, scoring as a royal marriage) is the only "
                "declaration, and a trick goes to the higher card of the suit led, else to the "
                "leader. If no marriage is ever declared, the deal ends without trumps."
            )
        extra = r.trump_double_marriage
        if extra:
            trump.append(f"A double marriage that fixes trump scores {extra}.")
    out.append(("Trump", trump))

    # play
    lead = "dealer's left" if r.first_lead_seat == "left" else "dealer's right"
    play = [
        f"The player on the {lead} leads to the first trick; the winner of each trick leads "
        "to the next.",
        "The highest trump wins the trick, or else the highest card of the suit led; of two "
        "identical cards the one played first wins.",
    ]
    if r.stage1_must_follow_suit:
        play.append("While the stock lasts (stage 1), a player must follow suit if able.")
    else:
        play.append(
            "While the stock lasts (stage 1) you may play any card: there is no need to follow "
            "suit, to trump or to win."
        )
    if r.draw_order == "leader-first":
        play.append(
            "After each trick the winner may declare; then the player who led the trick draws "
            "the top card of the stock, and the others draw in turn."
        )
    else:
        play.append(
            "After each trick the winner may declare, then draws the top card of the stock, "
            "and the others draw in turn."
        )
    if r.wild_cards and r.wild_card_lead_wins:
        play.append(
            "A joker led wins the trick unless a trump is played to it; a joker played to "
            "another lead never wins; of two jokers the first wins."
        )
    if r.reveal_last_draw:
        play.append("The winner of the last stage-1 trick shows the card drawn.")
    out.append(("Play", play))

    # declaring
    who = (
        "Only a player whose card beat a card played before it (never the leader) may declare"
        if r.declare_only_after_beating
        else "Only the winner of a trick may declare"
    )
    decl = [
        f"{who}, before drawing, by laying the cards face up on the table. They stay part of "
        "the hand and may be played from there.",
        f"{_n(r.melds_scored_per_trick, 'declaration', True)} may score for each trick won; other "
        "melds may be declared after later tricks if their cards are still held.",
        "Every declaration must put at least one new card from the hand on the table.",
    ]
    if r.min_tricks_before_declaring:
        decl.append(
            f"A player must have won {_n(r.min_tricks_before_declaring, 'trick')} before declaring"
            + (
                " (the seven of trumps may be exchanged before that)."
                if r.exchange_before_min_tricks
                else "."
            )
        )
    if r.meld_reuse == "by-class":
        decl.append(
            "A card may score again in a meld of another class (marriages and sequences; "
            "beziques; fours of a kind), and within its class only in a higher meld (a marriage "
            "may grow into a sequence, a bezique into a double bezique), never the other way."
        )
    elif r.meld_reuse == "once-per-kind":
        decl.append(
            "A card scores once in each kind of meld: marriages, beziques, sequences, and the "
            "fours of each rank (plain and trump fours of a rank are one kind). A king may "
            "marry and later join four kings; two beziques need four different cards."
        )
    else:
        decl.append("A card may score again only in a meld of another kind that scores more.")
    if r.wild_cards and r.wild_card_melds != "any":
        which = {
            "any": "any meld",
            "quartets": "four aces, kings, queens or jacks of any suits (not a trump four, a "
            "marriage, a bezique or a sequence)",
            "all-but-sequence": "any meld but a sequence",
        }[r.wild_card_melds]
        decl.append(f"A joker may stand in for one card of {which}, one joker a meld.")
        if r.meld_reuse == "once-per-kind":
            decl.append("A joker scores in one meld a deal.")
    if r.sequence_needs_marriage:
        decl.append(
            "The trump sequence is the A, 10 and J of trumps added to the declarer's own royal "
            "marriage on the table, neither card of which has been played."
        )
    if r.first_bezique:
        decl.append(f"The first bezique declared in a game scores {r.first_bezique}.")
    if r.meld_reforming:
        decl.append(
            "A meld may score again once one of its cards has been played and a like card added."
        )
    if r.partnerships and r.partner_declaring == "winner-or-partner":
        decl.append("The winner of a trick may let the partner declare instead.")
    decl += _meld_details(r)
    out.append(("Declaring", decl))

    # seven of trumps (or, in a pack without sevens, the nine that takes the turn-up)
    sevens: list[str] = []
    if r.turn_up and r.turn_up_exchange == "nine":
        out.append(
            (
                "Exchanging the turn-up",
                [
                    "When allowed to declare, a player may exchange a nine of trumps for the "
                    "turn-up; it scores nothing."
                ],
            )
        )
    if "7" not in r.pack_ranks:
        pass  # no sevens in the pack: nothing to say about them
    elif r.seven_of_trumps:
        if r.turn_up:
            sevens.append(
                "After winning a trick, the holder of the seven of trumps may exchange it for "
                f"the turn-up and score {r.seven_of_trumps}"
                + (
                    "; the exchange is that trick's declaration."
                    if r.seven_exchange_counts_as_meld
                    else "; a meld may be declared on the same trick."
                )
            )
        when = {
            "declare": "when declared after winning a trick",
            "play": "when it is played to a stage-1 trick",
            "win-trick": "when it wins a stage-1 trick",
            "play-always": "for the player who plays it, win or lose, once trump is fixed",
            "capture": "for the player who takes the trick it is played to, once trump is fixed",
        }.get(r.second_seven_scores, r.second_seven_scores)
        sevens.append(
            f"A seven of trumps {'that is not exchanged ' if r.turn_up else ''}scores "
            f"{r.seven_of_trumps} {when}."
            + (
                " This holds in stage 2 too."
                if r.second_seven_scores in ("play-always", "capture")
                else " In stage 2 it scores nothing."
            )
        )
    else:
        sevens.append("The seven of trumps scores nothing.")
    if sevens:
        out.append(("Seven of trumps", sevens))

    # stage 2
    duty = "follow suit"
    if r.stage2_must_head:
        duty += " and, if able, beat the card winning the trick"
    if r.stage2_must_trump:
        duty += "; a player who cannot follow suit must trump"
        duty += " (beating any trump already played, if able)" if r.stage2_must_head else ""
    gone = f"the stock{' and the turn-up are' if r.turn_up else ' is'} gone"
    if r.play_out_hand:
        stage2 = [
            f"When {gone}, the declared cards go back into the hands and the last "
            f"{_n(r.hand_size, 'trick')} are played out with no more declarations.",
            f"Now a player must {duty}; a player who can do none of that may play any card.",
        ]
        if r.wild_cards:
            stage2.append(
                "A joker has no suit: after a joker is led a player must trump if able. "
                + (
                    "A joker may be played only when it is the last kind of card held."
                    if r.stage2_wild_card == "last-resort"
                    else "A joker may be played only by a player who can neither follow nor trump."
                )
            )
        out.append(("Stage 2: the last tricks", stage2))
    else:
        out.append(
            (
                "The end of the hand",
                [
                    f"The hand ends when {gone}: the cards still held are not played, and "
                    "there is no second stage."
                ],
            )
        )

    # scoring
    scoring: list[str] = []
    ts = r.trick_scoring
    when = (
        " as the tricks are won" if r.brisque_timing == "immediate" else " at the end of the deal"
    )
    if ts == "brisques":
        scoring.append(f"Each ace and ten won in tricks (a brisque) scores 10, counted{when}.")
    elif ts == "card-points":
        scoring.append(f"Cards won in tricks score A 11, 10 10, K 4, Q 3, J 2, counted{when}.")
    elif ts == "brisque-majority":
        scoring.append(
            "At the end of the deal the aces and tens won in tricks (brisques) are counted: the "
            "player with more scores 10 for each of his, the other loses "
            f"{r.brisque_loser_penalty}; if they are equal, each scores "
            f"{r.brisque_tie_bonus}. Only a player whose game score (the last "
            f"trick included) is at least {r.brisque_min_score} gains or loses."
        )
    elif ts == "greek-per-trick":
        scoring.append("Each trick won scores 10, plus 10 for each ace and ten in it.")
    else:
        scoring.append("Cards won in tricks score nothing.")
    if r.brisques_only_to_settle:
        scoring.append("Brisques count only to break a tie or to escape the rubicon.")
    if r.last_trick_bonus:
        scoring.append(f"The winner of the last trick scores {r.last_trick_bonus}.")
    out.append(("Scoring", scoring))

    # the game
    game: list[str] = []
    if r.deal_scoring == "per-deal":
        game.append(
            f"Each deal is a game. The higher score wins {r.game_bonus} plus the "
            "difference between the scores."
        )
        game.append(
            f"A loser with under {r.rubicon_threshold} is rubiconed: the winner "
            f"scores {r.rubicon_bonus} plus both scores plus "
            f"{r.rubicon_brisque_bonus}."
        )
        small = r.small_loser_bonus
        if small:
            game.append(f"If the loser has under 100, the winner scores {small} more.")
    else:
        immediate = r.target_check == "immediate"
        game.append(
            f"Deals are played until a side reaches {r.target} points"
            + (
                ": a side that gets there by a meld or a seven ends the deal at once, with no "
                "last trick and no brisques."
                if immediate
                else ", checked at the end of a deal."
            )
        )
        if r.score_floor_zero:
            game.append("A score never goes below 0.")
        if r.both_reach_target == "last-trick-winner":
            game.append("If more than one side gets there, the taker of the last trick wins.")
        else:
            game.append(
                "If more than one side gets there, the higher score wins (a tie: the taker of "
                "the last trick)."
            )
    if r.triple_bezique_wins_game:
        game.append("A triple bezique wins the game outright.")
    games = r.match_games
    if games:
        below = r.double_game_below
        game.append(
            "Scores start again from 0 for the next game. Each game won adds 1 to the winner's "
            "count"
            + (f", 2 if every loser is under {below} (en bas table)" if below else "")
            + f", and sets the losers' counts to 0; the first to {games} wins the match "
            "(cent points)."
        )
        handicap = r.cent_points_handicap
        if handicap:
            game.append(
                f"The loser of a match starts every game of the next on {handicap}, until he "
                "wins a match."
            )
    out.append(("The game", game))
    return out


_RANK_WORDS = {"A": "A", "T": "10", "K": "K", "Q": "Q", "J": "J", "9": "9", "8": "8", "7": "7"}


def _cards(r: Rules) -> list[str]:
    """The pack: its packs and ranks, the cards added, and how the cards rank."""
    ranks = " ".join(_RANK_WORDS[x] for x in RANKS if x in r.pack_ranks)
    size = 4 * len(r.pack_ranks)
    text = f"{_n(r.packs, 'pack', True)} of {size} cards ({ranks} in each suit) shuffled together"
    added = []
    if r.extra_nines:
        each = f" ({r.extra_nines // 4} a suit)" if r.extra_nines % 4 == 0 else ""
        added.append(f"{_n(r.extra_nines, 'nine')}{each}")
    if r.wild_cards:
        added.append(f"{_n(r.wild_cards, 'wild card')} (XX)")
    if added:
        text += ", with " + " and ".join(added) + " added"
    order = [x for x in RANKS if x in r.pack_ranks or (x == "9" and r.extra_nines)]
    rank = ", ".join(_RANK_WORDS[x] for x in order)
    out = [f"{text}: {r.cards} cards.", f"Cards rank {rank}: the ten is above the king."]
    if r.wild_cards and (r.wild_card_lead_wins or r.wild_card_melds != "any"):
        out.append("A wild card (a joker) has no suit.")  # the rest is told with play, melds
    elif r.wild_cards:
        out.append(
            "A wild card has no suit and never wins a trick; in a meld it stands for any one card."
        )
    return out


def _dealt(r: Rules, stock: int) -> str:
    return (
        f"Each player is dealt {r.hand_size} cards, in packets of "
        f"{'-'.join(str(p) for p in r.deal_packets)}; {stock} cards are left face down as the "
        "stock."
    )


def _meld_details(r: Rules) -> list[str]:
    """What the rules change about the melds themselves."""
    out = []
    if r.repeat_doubles:
        out.append(
            "Each further royal marriage, bezique and trump sequence a player declares in a hand "
            "scores double the one before."
        )
    if r.sequence_bezique_jack:
        out.append("The bezique jack may stand in for the trump jack in a trump sequence.")
    if r.quartet_distinct_suits:
        out.append("Four aces, kings, queens or jacks must be of four different suits.")
    if r.trump_set_scoring == "cumulative":
        out.append(
            "Each trump card (or bezique jack) beyond four adds its own amount: five or more "
            "shown at once score the four and every card beyond it."
        )
    return out


def render_rules(rules: Rules) -> RenderableType:
    """The rules as headed paragraphs with the meld table."""
    parts: list[RenderableType] = [Text(f"Bezique: {rules}", style="bold underline"), Text("")]
    for heading, sentences in rules_sections(rules):
        parts.append(Text(heading, style="bold"))
        parts.append(Text(" ".join(sentences)))
        parts.append(Text(""))
        if heading == "Declaring":
            table = Table(title="Melds", title_justify="left", title_style="bold")
            table.add_column("Meld")
            table.add_column("Cards")
            table.add_column("Points", justify="right")
            for name, what, points in meld_rows(rules):
                table.add_row(name, what, str(points))
            if rules.seven_of_trumps:
                table.add_row("seven", "the seven of trumps", str(rules.seven_of_trumps))
            parts.append(table)
            parts.append(Text(""))
    return Group(*parts)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "(" + ",".join(_value(v) for v in value) + ")"
    return str(value)


def base_game(rules: Rules) -> Rules:
    """The game a rule set is told against: the base game for its number of players
    (classic, three, four), or classic for those base games themselves."""
    name = {2: "classic", 3: "three", 4: "four"}[rules.players]
    if name == rules.name:
        name = "classic"
    return Rules.preset(name)


def render_options(rules: Rules, every: bool = False) -> RenderableType:
    """The options, first those that make these rules what they are: the ones given on top of
    the preset, then the ones the preset changes from its base game, each with its value, the
    base game's and its meaning.  The rest (as in the base game) only with ``every``."""
    mine = rules.differences()
    base = base_game(rules)
    docs = Rules.option_docs()
    differ = [n for n in docs if n not in mine and getattr(rules, n) != getattr(base, n)]
    rest = [n for n in docs if n not in mine and n not in differ]
    parts: list[RenderableType] = [Text(f"Options of {rules}", style="bold underline"), Text("")]

    def show(name: str, was: Rules | None) -> None:
        line = Text.assemble((name, "bold cyan"), " = ")
        line.append(_value(getattr(rules, name)), style="bold yellow" if name in mine else "bold")
        if name in mine:
            line.append("  (changed)", style="yellow")
        if was is not None:
            line.append(f"  ({was.name}: {_value(getattr(was, name))})", style="dim")
        parts.append(line)
        span = Rules.option_range(name)
        doc = docs[name] + (f" ({span[0]} to {span[1]})" if span else "")
        parts.append(Padding(Text(doc), (0, 0, 0, 4)))

    def section(heading: str, names: list[str], was: Rules | None) -> None:
        parts.append(Text(heading, style="bold"))
        for name in names:
            show(name, was)
        parts.append(Text(""))

    if mine:
        preset = Rules.preset(rules.name, players=rules.players)
        section(f"Changed from {rules.name}:", list(mine), preset)
    if differ:
        section(f"What {rules.name} changes from {base.name}:", differ, base)
    elif not mine:
        section(f"{rules.name} is the base game.", [], None)
    if every:
        section(f"Every other option, as in {base.name}:", rest, None)
    else:
        parts.append(
            Text(
                f"{len(rest)} other options are as in {base.name}: add --all to list them too.",
                style="dim",
            )
        )
    parts.append(
        Text(
            "Change any of them with --option name=value (e.g. --option target=1500).",
            style="dim",
        )
    )
    return Group(*parts)
