"""Pictures of a deal, as pure functions of an :class:`~bezique.core.observation.Observation`.

Nothing here reads a :class:`~bezique.core.deal.Deal` or asks for input: each function takes a
seat's view (and, where it helps, names and match scores the caller knows) and returns a rich
renderable or plain text.  Hidden cards cannot show because they are not in the view; the one
exception is ``reveal``, which a replay of a finished game passes to show every hand.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..core.cards import RANKS, SUIT_SYMBOLS, SUITS, is_brisque, parse_card
from ..core.deal import SideResult
from ..core.events import EventKind, ScoreEvent
from ..core.match import Settlement, settle_points
from ..core.notation import Action
from ..core.observation import Observation
from ..core.rules import Rules
from ..core.scoring import declaration_points

SUIT_STYLES = {"S": "bold", "H": "bold red", "D": "bold red", "C": "bold"}
"""Rich styles of the suits: red suits red."""


# --- cards ---------------------------------------------------------------------------------------
def card_label(code: str) -> str:
    """``'QS'`` -> ``'Q♠'``, ``'TD'`` -> ``'10♦'``."""
    c = code.partition("@")[0]
    rank, suit = c[0], c[1]
    if suit not in SUITS:  # the wild card (old Russian), XX
        return "★"
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[SUITS.index(suit)]


def card_text(code: str) -> Text:
    """A card in its suit's colour."""
    c = code.partition("@")[0]
    return Text(card_label(c), style=SUIT_STYLES.get(c[1], "bold magenta"))


def cards_text(codes: Sequence[str], sep: str = " ") -> Text:
    """Cards in a row."""
    return Text(sep).join(card_text(c) for c in codes)


def hand_text(codes: Sequence[str]) -> Text:
    """A hand sorted by suit (S H D C) and rank, the suits set apart."""
    by_suit: dict[str, list[str]] = {s: [] for s in SUITS}
    wild = []
    for c in codes:
        if c[1] in by_suit:
            by_suit[c[1]].append(c)
        else:  # wild cards last
            wild.append(c)
    groups = [
        cards_text(sorted(cs, key=lambda c: RANKS.index(c[0]))) for cs in by_suit.values() if cs
    ]
    if wild:
        groups.append(cards_text(wild))
    return Text("   ").join(groups) if groups else Text("–", style="dim")


def table_text(refs: Sequence[str]) -> Text:
    """Declared cards (``CODE@meld+meld``), grouped by the melds they have scored in."""
    if not refs:
        return Text("–", style="dim")
    groups: dict[str, list[str]] = {}
    for ref in refs:
        card, _, where = ref.partition("@")
        groups.setdefault(where, []).append(card)
    parts = []
    for where, cards in groups.items():
        t = cards_text(cards)
        if where:
            melds = (m.replace("-", " ") for m in where.split("+"))
            t.append(" (" + ", ".join(melds) + ")", style="dim")
        parts.append(t)
    return Text("  ·  ").join(parts)


def notation_text(text: str) -> Text:
    """An action or event text with its card codes shown as coloured cards."""
    out = Text()
    for i, word in enumerate(text.split()):
        if i:
            out.append(" ")
        try:
            parse_card(word.partition("@")[0])
            is_card = len(word.partition("@")[0]) == 2
        except ValueError:
            is_card = False
        if is_card:
            out.append_text(card_text(word))
            if "@" in word:
                where = word.partition("@")[2]
                out.append(" from the table" if where == "table" else f" ({where})", style="dim")
        else:
            out.append(word)
    return out


# --- names -------------------------------------------------------------------------------------
def seat_names(rules: Rules, names: Sequence[str] | None) -> list[str]:
    """A name per seat (``Seat 0``... when none are given)."""
    n = rules.players
    given = list(names or [])
    return [given[s] if s < len(given) and given[s] else f"Seat {s}" for s in range(n)]


def side_names(rules: Rules, names: Sequence[str] | None) -> list[str]:
    """A name per scoring side: the seat's name, or the partners' names joined."""
    seats = seat_names(rules, names)
    return [
        " & ".join(seats[s] for s in range(rules.players) if rules.side_of(s) == side)
        for side in range(rules.sides)
    ]


def does(name: str, verb: str) -> str:
    """``'Ann leads'``, but ``'You lead'`` and ``'Ann & Bob lead'``."""
    return f"{name} {verb}" if name == "You" or " & " in name else f"{name} {verb}s"


# --- actions and events ------------------------------------------------------------------------
def action_text(obs: Observation, action: str) -> Text:
    """A legal action in words, with the points it scores."""
    a = Action.parse(action)
    if a.verb == "pass":
        return Text("pass") + Text("  (declare nothing; draw)", style="dim")
    if a.verb == "partner":
        return Text("partner") + Text("  (let your partner declare instead)", style="dim")
    out = notation_text(action)
    if a.verb == "exchange" and obs.turn_up:
        out.append(" for ")
        out.append_text(card_text(obs.turn_up))
    points = declaration_points(obs, action)
    if points:
        out.append(f"  +{points}", style="bold green")
    return out


def event_text(what: str) -> Text:
    """A scoring event of :attr:`Observation.events` (its ``what``) in words."""
    event = ScoreEvent(0, 0, what, 0)
    try:
        kind = event.kind
    except ValueError:
        return notation_text(what)
    cards = notation_text(" ".join(event.cards))
    if kind is EventKind.MELD and event.meld:
        return Text(f"declared {event.meld.replace('-', ' ')} ") + cards
    if kind is EventKind.EXCHANGE:
        return Text("exchanged ") + cards + Text(" for the turn-up")
    if kind is EventKind.TURN_UP:
        return Text("dealt and turned up ") + cards
    if kind is EventKind.SEVEN and event.how in _SEVEN_WORDS:
        return Text(_SEVEN_WORDS[event.how]) + cards
    if kind in _EVENT_WORDS:
        return Text(_EVENT_WORDS[kind])
    return notation_text(what)


_SEVEN_WORDS = {
    "played": "played the seven of trumps ",
    "won": "won a trick with the seven of trumps ",
}
_EVENT_WORDS = {
    EventKind.LAST_TRICK: "took the last trick",
    EventKind.CARTE_BLANCHE: "showed a carte blanche (no king, queen or jack)",
    EventKind.CARTE_BLANCHE_ENDS: "drew a court card: no more carte blanche",
    EventKind.WINS_GAME: "wins the game outright",
}


def points_text(points: int) -> Text:
    """``+40`` in green, ``-5`` in red."""
    return Text(f"{points:+d}", style="bold green" if points >= 0 else "bold red")


def trick_line(obs: Observation, number: int, names: Sequence[str] | None = None) -> Text:
    """One completed trick (1-based ``number``): who played what, and who won it."""
    seats = seat_names(obs.rules, names)
    leader, cards, winner = obs.tricks[number - 1]
    n = obs.rules.players
    out = Text.assemble((f"Trick {number:>2}: ", "dim"))
    for i, c in enumerate(cards):
        if i:
            out.append(", ")
        out.append(seats[(leader + i) % n] + " ")
        out.append_text(card_text(c))
    out.append("  → taken by ")
    out.append(seats[winner], style="bold")
    brisques = sum(1 for c in cards if is_brisque(c))
    if brisques and obs.rules.trick_scoring in ("brisques", "greek-per-trick"):
        out.append(f" ({brisques} brisque{'s' if brisques > 1 else ''})", style="dim")
    return out


def log_lines(obs: Observation, names: Sequence[str] | None = None) -> list[Text]:
    """The story of the deal so far: every completed trick and every score, in order."""
    seats = seat_names(obs.rules, names)
    by_trick: dict[int, list[tuple[int, str, int]]] = {}
    for t, seat, what, points in obs.events:
        by_trick.setdefault(t, []).append((seat, what, points))
    out: list[Text] = []

    def scores(t: int) -> None:
        for seat, what, points in by_trick.get(t, ()):
            line = Text("    ")
            line.append(seats[seat], style="bold")
            line.append(" ")
            line.append_text(event_text(what))
            line.append(" ")
            line.append_text(points_text(points))
            out.append(line)

    scores(0)
    for i in range(1, len(obs.tricks) + 1):
        out.append(trick_line(obs, i, names))
        scores(i)
    return out


def scores_line(names: Sequence[str], values: Sequence[int]) -> Text:
    """``You: 120   Computer 1: 40``: each name with a colon before its score, so that names
    ending in a number (``Computer 1``) are not read as part of the score."""
    return Text("   ").join(
        Text.assemble((f"{name}:", ""), f" {value}")
        for name, value in zip(names, values, strict=False)
    )


def counts_brisques(rules: Rules) -> bool:
    """True where the aces and tens won in tricks count (the brisque scorings and Rubicon's
    brisques kept to settle the game)."""
    return rules.brisques_only_to_settle or rules.trick_scoring in (
        "brisques",
        "brisque-majority",
        "greek-per-trick",
    )


def brisques_won(obs: Observation) -> list[int]:
    """Aces and tens each side has won in the completed tricks of the deal so far (public:
    every completed trick is seen by all)."""
    rules = obs.rules
    out = [0] * rules.sides
    for _leader, cards, winner in obs.tricks:
        out[rules.side_of(winner)] += sum(1 for c in cards if is_brisque(c))
    return out


def deal_points_text(obs: Observation, names: Sequence[str] | None = None) -> Text:
    """The deal's points per side and, where brisques count, the brisques won so far (they are
    added to the points only when the deal ends)."""
    sides = side_names(obs.rules, names)
    out = scores_line(sides, obs.points)
    if counts_brisques(obs.rules):
        won = brisques_won(obs)
        out.append(
            "   (brisques won: " + ", ".join(f"{sides[s]} {n}" for s, n in enumerate(won)) + ")",
            style="dim",
        )
    return out


# --- the whole view --------------------------------------------------------------------------
def status_text(obs: Observation) -> Text:
    """Trump, turn-up, stock and trick count on one line."""
    out = Text()
    out.append("Trump ")
    if obs.trump:
        out.append(SUIT_SYMBOLS[SUITS.index(obs.trump)], style=SUIT_STYLES[obs.trump])
    else:
        out.append("not fixed yet", style="dim")
    if obs.rules.turn_up:
        out.append("   Turn-up ")
        out.append_text(card_text(obs.turn_up) if obs.turn_up else Text("taken", style="dim"))
    if obs.rules.show_stock_count:
        out.append(f"   Stock {obs.stock_size}")
    total = obs.rules.tricks
    done = len(obs.tricks)
    if obs.phase == "over":
        out.append(f"   All {total} tricks played")
    else:
        out.append(f"   Trick {min(done + 1, total)} of {total}")
    return out


def stage_text(obs: Observation) -> Text:
    """What the stage of the deal allows, in a few words."""
    rules = obs.rules
    if obs.phase == "over":
        return Text("")
    if obs.stage == 1:
        duty = "follow suit if you can" if rules.stage1_must_follow_suit else "play any card"
        return Text(f"Stage 1: {duty}; the trick's winner may declare", style="dim")
    duties = ["follow suit"]
    if rules.stage2_must_head:
        duties.append("beat the trick if you can")
    if rules.stage2_must_trump:
        duties.append("trump if void")
    return Text("Stage 2: " + ", ".join(duties) + "; no declaring", style="dim")


def trick_text(obs: Observation, names: Sequence[str] | None = None) -> Text:
    """The trick on the table now."""
    seats = seat_names(obs.rules, names)
    if not obs.trick:
        if obs.to_move is None:
            return Text("–", style="dim")
        verb = "declare" if obs.phase == "declare" else "lead"
        return Text(does(seats[obs.to_move], verb), style="dim")
    out = Text()
    for i, (seat, c) in enumerate(obs.trick):
        if i:
            out.append(", ")
        out.append(seats[seat] + (" led " if i == 0 else " played "))
        out.append_text(card_text(c))
    return out


def prompt_text(obs: Observation, names: Sequence[str] | None = None) -> Text:
    """What the observing seat is asked to do."""
    if obs.phase == "over":
        return Text("The deal is over.")
    if not obs.my_turn:
        seats = seat_names(obs.rules, names)
        return Text(does(seats[obs.to_move] if obs.to_move is not None else "Nobody", "move") + ".")
    if obs.phase == "declare":
        verbs = {a.split()[0] for a in obs.legal}
        what = "declare, exchange the seven, or pass" if "exchange" in verbs else "declare or pass"
        if "partner" in verbs:
            what = what.replace(" or pass", ", pass, or let your partner declare")
        if obs.leader != obs.seat:
            seats = seat_names(obs.rules, names)
            return Text(
                f"{seats[obs.leader]} won the trick and let you declare: {what}.", style="bold"
            )
        return Text(f"You won the trick: {what}.", style="bold")
    if not obs.trick:
        return Text("Your lead.", style="bold")
    return Text("Your turn to play to the trick.", style="bold")


def legal_table(obs: Observation) -> RenderableType:
    """The legal actions, numbered from 1: plays side by side, declarations one a line."""
    width = len(str(len(obs.legal)))
    items = [
        Text.assemble((f"{i:>{width}} ", "bold cyan"), action_text(obs, action))
        for i, action in enumerate(obs.legal, 1)
    ]
    if all(a.startswith("play ") for a in obs.legal):
        return Columns(items, padding=(0, 3))
    return Text("\n").join(items)


def render_observation(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    scores: Sequence[int] | None = None,
    deal_number: int | None = None,
    log: int = 8,
    reveal: Mapping[int, Sequence[str]] | None = None,
    show_legal: bool = True,
    title: str | None = None,
) -> RenderableType:
    """The whole picture of one seat's view.

    ``names``: a name per seat; ``scores``: the match totals per side; ``log``: how many lines
    of the deal's story to show; ``reveal``: concealed cards to show for other seats (replays).
    """
    rules = obs.rules
    seats = seat_names(rules, names)
    sides = side_names(rules, names)
    order = [s for s in range(rules.players) if s != obs.seat]
    if obs.seat is not None:
        order.append(obs.seat)
    if obs.phase == "over":
        order = []
    labels = {s: seats[s] + (" (dealer)" if s == obs.dealer else "") for s in order}
    width = max([len("This deal"), *(len(v) for v in labels.values())]) + 2
    rows: list[Text] = []

    def row(label: str | Text, content: Text, style: str = "bold") -> None:
        text = label.plain if isinstance(label, Text) else label
        rows.append(Text.assemble((text.ljust(width), style), content))

    if scores is not None:
        row(
            "Match",
            scores_line(sides, scores) + Text(f"   ({game_text(rules)})", style="dim"),
        )
    row("This deal", deal_points_text(obs, names))
    rows.append(status_text(obs))
    if obs.phase != "over":
        rows.append(stage_text(obs))
    for s in order:
        rows.append(Text(""))
        me = s == obs.seat
        if me:
            rows.append(Text(labels[s], style="bold cyan"))
        else:
            size = obs.hand_sizes[s]
            row(labels[s], Text(f"{size} card{'' if size == 1 else 's'} in hand", style="dim"))
        row("  table", table_text(obs.tables[s]), "")
        if not me and obs.known[s]:
            row("  known", cards_text(obs.known[s]), "")
        if me:
            row("  hand", hand_text(obs.hand), "bold")
        elif reveal is not None and s in reveal:
            row("  hand", hand_text(list(reveal[s])), "")
    if order:
        rows.append(Text(""))
        row("Trick", trick_text(obs, names))
    parts: list[RenderableType] = list(rows)
    story = log_lines(obs, names)
    if log and story:
        parts.append(Text(""))
        parts.extend(story[-log:])
    if obs.phase != "over" and obs.seat is not None and show_legal:
        parts.append(Text(""))
        parts.append(prompt_text(obs, names))
        if show_legal and obs.legal:
            parts.append(legal_table(obs))
    head = title or (
        f"Bezique · {rules}" + (f" · deal {deal_number}" if deal_number is not None else "")
    )
    return Panel(Group(*parts), title=head, title_align="left", expand=False)


def render_deal_end(
    obs: Observation,
    result: Sequence[SideResult] | None,
    names: Sequence[str] | None = None,
    *,
    scores: Sequence[int] | None = None,
) -> RenderableType:
    """The summary of a finished deal: declarations, tricks, last trick and totals per side."""
    rules = obs.rules
    sides = side_names(rules, names)
    seats = seat_names(rules, names)
    table = Table(title="End of the deal", title_justify="left", expand=False)
    table.add_column("")
    for name in sides:
        table.add_column(name, justify="right")
    if result is not None:
        trick_label = {
            "brisques": "Brisques",
            "card-points": "Card points",
            "greek-per-trick": "Tricks",
        }.get(rules.trick_scoring, "Tricks")
        table.add_row("Declarations", *[str(r.melds) for r in result])
        if rules.brisques_only_to_settle:
            table.add_row("Brisques (to settle)", *[str(r.brisques) for r in result])
        elif rules.trick_scoring != "none":
            table.add_row(trick_label, *[str(r.tricks) for r in result])
        table.add_row("Last trick", *[str(r.last_trick) for r in result])
        if any(r.bonuses for r in result):
            table.add_row("Bonuses", *[str(r.bonuses) for r in result])
    table.add_row(
        Text("Deal points", style="bold"), *[Text(str(p), style="bold") for p in obs.points]
    )
    settlement = None
    if result is not None and rules.deal_scoring == "per-deal":
        settlement = settle_points(rules, [r.total for r in result], [r.brisques for r in result])
        table.add_row("Game", *[str(p) for p in settlement.payout])
    if scores is not None:
        table.add_row(
            Text("Match total", style="bold"), *[Text(str(s), style="bold") for s in scores]
        )
    lines: list[RenderableType] = [table]
    if settlement is not None:
        lines.append(settlement_text(rules, settlement, sides))
    melds = [(seat, what, p) for _, seat, what, p in obs.events]
    if melds:
        lines.append(Text("Scores made in the deal:", style="bold"))
        for seat, what, p in melds:
            lines.append(
                Text("  " + seats[seat] + " ") + event_text(what) + Text(" ") + points_text(p)
            )
    if obs.tricks:
        lines.append(Text("Last trick: ") + trick_line(obs, len(obs.tricks), names))
    return Group(*lines)


def game_text(rules: Rules) -> str:
    """What wins: ``game 1000``, or ``one deal is a game`` for per-deal games."""
    return "one deal is a game" if rules.deal_scoring == "per-deal" else f"game {rules.target}"


def settlement_text(rules: Rules, settlement: Settlement, sides: Sequence[str]) -> Text:
    """How a per-deal game was paid out (RULES.md 2.5-2.7), sum by sum."""
    s = settlement
    if s.winner is None:
        return Text(
            f"A tie at {s.scores[0]}: nobody scores, and another deal decides.", style="bold"
        )
    w, lose = s.paid_scores
    labels = {
        "rubicon": "{} rubicon",
        "winner": "{}",
        "loser": "{}",
        "brisques": "{} for the brisques",
        "game": "{} game",
        "loser under 100": "{} (loser under 100)",
    }
    parts = [
        f"({w} - {lose})" if name == "difference" else labels[name].format(value)
        for name, value in s.parts
    ]
    if s.rubicon:
        how = f" with a rubicon ({sides[1 - s.winner]} under {rules.rubicon_threshold})"
    else:
        how = " the game"
    counted = s.brisques_counted and rules.brisques_only_to_settle
    return Text.assemble(
        (does(sides[s.winner], "win") + how, "bold"),
        f": {' + '.join(parts)} = {s.payout[s.winner]}.",
        " Brisques were counted to settle it." if counted else "",
    )


def render_scores(
    obs: Observation, names: Sequence[str] | None = None, scores: Sequence[int] | None = None
) -> Text:
    """Deal points and match totals on two lines."""
    sides = side_names(obs.rules, names)
    out = Text("This deal: ") + deal_points_text(obs, names)
    if scores is not None:
        out += Text("\nMatch:     ") + scores_line(sides, scores)
        out.append(f"   ({game_text(obs.rules)})", style="dim")
    return out


def to_text(renderable: RenderableType, width: int = 100) -> str:
    """Plain text of a renderable, without colours."""
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False)
    console.print(renderable)
    return buf.getvalue()


def text(
    obs: Observation,
    names: Sequence[str] | None = None,
    *,
    scores: Sequence[int] | None = None,
    reveal: Mapping[int, Sequence[str]] | None = None,
    width: int = 100,
) -> str:
    """The picture of :func:`render_observation` as plain text."""
    return to_text(render_observation(obs, names, scores=scores, reveal=reveal), width)
