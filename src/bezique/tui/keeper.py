"""``bezique keep``: the score-keeper for games played with real cards, in the terminal.

A prompt loop around :class:`bezique.keeper.Keeper`: each line is one entry (a deal, a
declaration, trick points, the last trick, a penalty, the end of a deal) or a command (sheet,
melds, undo, help, quit).  The score sheet is shown after every entry; a wrong entry gets a
one-line message and changes nothing.  Every entry is in the journal the moment it is made, so
``--resume FILE`` carries on after a crash or a quit.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.cards import SUIT_SYMBOLS, SUITS, parse_card
from ..core.games import add_points, next_handicap
from ..keeper import DealSheet, Keeper
from . import lineedit
from .render import card_label, does, settlement_text

Ask = Callable[[str], str]

COMMANDS = ("deal", "end", "undo", "sheet", "melds", "penalties", "help", "quit")

HELP = """\
Entries (NAME: a player's name, any case, or seat number)
  deal [CARD] [by NAME]     start the next deal: the card turned up (where the
                            rules turn one up) and who dealt (default: the
                            player on the last dealer's left)
  NAME bezique QS JD        a declaration: the meld, then its cards (see
                            melds); also NAME royal-marriage KH QH,
                            NAME seven 7H, NAME exchange 7H, NAME carte-blanche
                            A card already on NAME's table from an earlier
                            declaration is written QS@table.
  NAME seven 7H             the seven of trumps declared (or, in the Haitian
                            game, played: 10 to its player)
  NAME four-kings KS KH KD XX   a joker (XX) completes a quartet where the
                            rules allow it (Haitian: one joker a quartet)
  NAME tricks 60            the points NAME's side made in tricks this deal
  NAME brisques 6           the same as a count of aces and tens (10 each);
                            under brisque majority (Haitian) the count is
                            settled at the end of the deal
  NAME last                 NAME took the last trick
  NAME penalty OFFENCE [POINTS] [to NAME]
                            a penalty of the rules' scheme (see penalties)
  end                       end the deal: totals, settlement, match check
                            (a Haitian deal also ends by itself when a
                            declaration reaches the target)
Commands
  undo     take back the last entry    sheet      the score sheet
  melds    the declarations here       penalties  the offences here
  help     this text                   quit       stop (all is in the journal)
Cards: a rank A 10 (or T) K Q J 9 8 7 and a suit S H D C, e.g. QS, 10D."""


class KeeperApp:
    """The prompt loop of ``bezique keep`` (``ask`` reads a line; tests pass scripted input)."""

    def __init__(
        self, keeper: Keeper, console: Console | None = None, ask: Ask | None = None
    ) -> None:
        self.keeper = keeper
        self.console = console if console is not None else Console(highlight=False)
        self._ask = ask
        check_names(keeper.players)

    # --- input and output ------------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        if self._ask is not None:
            return self._ask(prompt)
        if lineedit.enable("keep"):  # arrow keys edit the line and recall earlier entries
            return lineedit.read_line(prompt)
        return self.console.input(Text(prompt, style="bold"))

    def error(self, message: str) -> None:
        self.console.print(Text("✗ ", style="bold red") + Text(message, style="red"))

    def note(self, message: str, style: str = "") -> None:
        self.console.print(Text(message, style=style))

    # --- the loop ------------------------------------------------------------------------------
    def run(self) -> int:
        """Read entries until quit or end of input; the exit status."""
        k = self.keeper
        rules = k.rules
        goal = _goal(k)
        self.console.print(
            Text.assemble(
                ("Score-keeper: ", "bold"),
                f"{rules} ({goal}), ",
                " against ".join(k.side_names),
                ".  Type help for the entries.",
            )
        )
        if k.path is not None:
            self.note(f"Journal: {k.path} (every entry is saved at once).", "dim")
        if any(k.handicap):
            self.note(
                "Every game starts on "
                + ", ".join(f"{n} {h}" for n, h in zip(k.side_names, k.handicap, strict=True))
                + " (the cent-points handicap).",
                "dim",
            )
        for w in k.warnings:
            self.note(f"! {w}", "yellow")
        if k.entries:
            self.show()
        try:
            while True:
                try:
                    line = self.ask(self.prompt())
                except EOFError:
                    self.note("")
                    break
                if self.handle(line) == "quit":
                    break
        except KeyboardInterrupt:
            self.note("\nInterrupted.", "bold")
            self._goodbye()
            return 130
        self._goodbye()
        return 0

    def _goodbye(self) -> None:
        k = self.keeper
        if k.path is not None and not k.is_over:
            self.note(f"Saved in {k.path}: carry on with bezique keep --resume {k.path}")

    def prompt(self) -> str:
        k = self.keeper
        if k.is_over:
            return "The match is over (undo, sheet or quit): "
        sheet = k.deal
        if sheet is None:
            number = len(k.deals) + 1
            dealer = k.players[k.next_dealer]
            what = "deal CARD" if k.rules.turn_up else "deal"
            return f"Deal {number} (dealer {dealer}): {what} [by NAME], or help: "
        trump = SUIT_SYMBOLS[SUITS.index(sheet.trump)] if sheet.trump is not None else "not fixed"
        return f"Deal {sheet.number}, trump {trump} · entry (help): "

    def handle(self, line: str) -> str | None:
        """Carry out one line; 'quit' to stop.  Bad input gets a message, never an exception."""
        words = line.split()
        if not words:
            return None
        head = words[0].lower()
        k = self.keeper
        try:
            if head in ("help", "?", "h"):
                self.console.print(Text(HELP))
            elif head in ("quit", "exit", "q"):
                return "quit"
            elif head in ("sheet", "score", "scores"):
                self.show()
            elif head == "melds":
                self.console.print(self._melds())
            elif head in ("penalties", "offences", "offenses"):
                self.console.print(self._offences())
            elif head == "undo":
                what = k.undo()
                self.note(f"Undone: {what}.", "yellow")
                self.show()
            elif head == "deal":
                self._deal(words[1:])
                self.show()
            elif head == "end":
                k.end_deal()
                self.show()
                self._after_end()
            else:
                self._seat_entry(words)
                self.show()
        except ValueError as e:
            self.error(" ".join(str(e).split()))
        except OSError as e:
            self.error(f"could not write the journal: {e.strerror or e}; the entry was not made")
        return None

    def _deal(self, words: list[str]) -> None:
        turn_up = None
        dealer = None
        i = 0
        while i < len(words):
            w = words[i]
            if w.lower() == "by":
                if i + 1 >= len(words):
                    raise ValueError("say who dealt: deal 7H by NAME")
                dealer = words[i + 1]
                i += 2
                continue
            if turn_up is not None:
                raise ValueError(f"unexpected {w!r}: write deal CARD [by NAME]")
            try:
                parse_card(w)
            except ValueError:
                raise ValueError(
                    f"{w!r} is not a card: write deal CARD [by NAME], e.g. deal 7H"
                ) from None
            turn_up = w
            i += 1
        self.keeper.new_deal(turn_up=turn_up, dealer=dealer)

    def _seat_entry(self, words: list[str]) -> None:
        k = self.keeper
        try:
            seat = k.seat(words[0])
        except ValueError as e:
            raise ValueError(
                f"{e}; an entry starts with a player's name or one of: {', '.join(COMMANDS)}"
            ) from None
        rest = words[1:]
        if not rest:
            raise ValueError(
                f"what did {k.players[seat]} do? e.g. {k.players[seat]} bezique QS JD, "
                f"{k.players[seat]} tricks 60, {k.players[seat]} last"
            )
        verb = rest[0].lower()
        if verb in ("last", "last-trick", "lasttrick"):
            if len(rest) > 1 and rest[1].lower() != "trick":
                raise ValueError(f"write {k.players[seat]} last")
            before = k.deal.last_trick_seat if k.deal is not None else None
            k.last_trick(seat)
            if before is not None:
                self.note(
                    f"{k.players[seat]} took the last trick, in place of {k.players[before]}.",
                    "yellow",
                )
        elif verb in ("tricks", "points", "brisques"):
            if len(rest) != 2:
                raise ValueError(f"write {k.players[seat]} {verb} NUMBER")
            number = _number(rest[1])
            if verb == "brisques":
                k.tricks(seat, brisques=number)
            else:
                k.tricks(seat, number)
        elif verb == "penalty":
            self._penalty(seat, rest[1:])
        else:
            points = k.declare(seat, " ".join(rest))
            self.note(f"{k.players[seat]} scores {points}.", "green")
            if k.deal is None and k.deals and k.deals[-1].ended_early:
                self.note(
                    f"The target ({k.rules.target}) is reached: the deal ends at once, with no "
                    "last trick and no brisques.",
                    "bold",
                )
                self._after_end()

    def _penalty(self, seat: int, words: list[str]) -> None:
        k = self.keeper
        if not words:
            raise ValueError("name the offence (`penalties` lists them)")
        offence = words[0]
        points = None
        to = None
        i = 1
        while i < len(words):
            w = words[i]
            if w.lower() == "to" and i + 1 < len(words):
                to = words[i + 1]
                i += 2
                continue
            if points is not None:
                raise ValueError(f"unexpected {w!r}: write penalty OFFENCE [POINTS] [to NAME]")
            points = _number(w)
            i += 1
        k.penalty(seat, offence, points=points, to=to)

    def _after_end(self) -> None:
        k = self.keeper
        sheet = k.deals[-1]
        if sheet.settlement is not None:
            self.console.print(settlement_text(k.rules, sheet.settlement, k.side_names))
        if sheet.game is not None and k.winner is None:
            game = sheet.game
            self.console.print(
                Text(
                    f"{does(k.side_names[game.winner], 'win')} game {len(k.games)}"
                    + (" en bas table (it counts 2)" if game.double else "")
                    + ". Match count: "
                    + ", ".join(f"{n} {c}" for n, c in zip(k.side_names, game.counts, strict=True))
                    + f" (first to {k.rules.match_games}). The next game starts again.",
                    style="bold",
                )
            )
        if k.winner is not None:
            scores = k.scores
            self.console.print(
                Text(
                    f"{does(k.side_names[k.winner], 'win')} the match with {scores[k.winner]}.",
                    style="bold green",
                )
            )
            if k.path is not None:
                self.note(f"The whole match is in {k.path}.", "dim")
            if k.rules.cent_points_handicap:
                # cent points (HAITIAN.md H32): the loser starts every game of the next match
                # on the handicap until he wins a match
                starts = next_handicap(k.rules, k.handicap, k.winner)
                self.note(
                    "Next match: every game starts on "
                    + ", ".join(f"{n} {h}" for n, h in zip(k.side_names, starts, strict=True))
                    + f" (bezique keep ... --handicap {','.join(map(str, starts))}).",
                    "bold",
                )

    # --- pictures ------------------------------------------------------------------------------
    def show(self) -> None:
        self.console.print(render_sheet(self.keeper))

    def _melds(self) -> RenderableType:
        table = Table(title=f"Declarations in {self.keeper.rules}", title_justify="left")
        table.add_column("Meld")
        table.add_column("Points", justify="right")
        for name, points in self.keeper.melds():
            table.add_row(name, str(points))
        return table

    def _offences(self) -> RenderableType:
        offences = self.keeper.offences()
        if not offences:
            return Text(
                "No penalties in these rules (penalty_scheme=none); start with "
                "--option penalty_scheme=russian or victorian to keep them."
            )
        table = Table(title=f"Penalties ({self.keeper.rules.penalty_scheme})", title_justify="left")
        table.add_column("Offence")
        table.add_column("Penalty")
        for name, (_, meaning) in offences.items():
            table.add_row(name, meaning)
        return table


def check_names(names: list[str]) -> None:
    """Player names must not be commands of the prompt."""
    for name in names:
        if name.lower() in (*COMMANDS, "h", "q", "exit", "score", "scores"):
            raise ValueError(f"a player cannot be called {name!r}: it is a command")


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None


def _trump_text(sheet: DealSheet) -> Text:
    if sheet.trump is None:
        return Text("–", style="dim")
    style = "red" if sheet.trump in "HD" else ""
    out = Text(SUIT_SYMBOLS[SUITS.index(sheet.trump)], style=style)
    if sheet.turn_up:
        out.append(f" ({card_label(sheet.turn_up)})", style="dim")
    return out


def _goal(k: Keeper) -> str:
    rules = k.rules
    if k.per_deal:
        return "each deal is a game"
    if rules.match_games:
        return f"games to {rules.target}, match to {rules.match_games} games"
    return f"first to {rules.target}"


def render_sheet(keeper: Keeper, log: int = 4) -> RenderableType:
    """The score sheet: a line per deal with the running totals (of each game, in a match of
    games), then the deal in progress (or the one just ended) in detail."""
    k = keeper
    rules = k.rules
    goal = _goal(k)
    table = Table(title=f"Score sheet · {rules} · {goal}", title_justify="left")
    table.add_column("Deal", justify="right")
    table.add_column("Dealer")
    table.add_column("Trump")
    for name in k.side_names:
        table.add_column(name, justify="right")
    for sheet in k.deals:
        cells: list[Text] = []
        if sheet.over:
            score = k.deal_score(sheet)
            running = add_points(rules, sheet.carry, score)
            for side in range(rules.sides):
                if k.per_deal:
                    cell = Text(f"{sheet.totals[side]}")
                    if score[side]:
                        cell.append(f" → {score[side]}", style="bold")
                else:
                    cell = Text(f"{sheet.totals[side]:+d} = ")
                    cell.append(str(running[side]), style="bold")
                cells.append(cell)
        else:
            cells = [Text(f"({t})", style="italic") for t in sheet.totals]
        label = str(sheet.number) + ("" if sheet.over else " …")
        table.add_row(label, k.players[sheet.dealer], _trump_text(sheet), *cells)
        if sheet.game is not None:
            game = sheet.game
            table.add_row(
                "",
                Text(f"game won by {k.side_names[game.winner]}", style="bold"),
                "en bas table" if game.double else "",
                *[Text(f"count {c}", style="bold") for c in game.counts],
            )
    if k.deals:
        table.add_row(
            Text("Total" if not rules.match_games else "Game", style="bold"),
            "",
            "",
            *[Text(str(s), style="bold") for s in k.scores],
        )
    parts: list[RenderableType] = [table]
    current = k.deal or (k.deals[-1] if k.deals else None)
    if current is not None:
        parts.append(render_deal(k, current, log))
    if k.winner is not None:
        parts.append(Text(f"{k.side_names[k.winner]}: match won.", style="bold green"))
    return Group(*parts)


def render_deal(keeper: Keeper, sheet: DealSheet, log: int = 4) -> RenderableType:
    """One deal's points per side, by where they came from, and its last entries."""
    k = keeper
    rules = k.rules
    state = "over" if sheet.over else "in progress"
    table = Table(title=f"Deal {sheet.number} ({state})", title_justify="left")
    table.add_column("")
    for name in k.side_names:
        table.add_column(name, justify="right")
    label = {"card-points": "Card points", "greek-per-trick": "Tricks"}.get(
        rules.trick_scoring, "Brisques"
    )
    rows: list[tuple[str, list[int]]] = [("Declarations", sheet.melds)]
    if rules.trick_scoring == "brisque-majority":
        rows.append(("Brisques won", [b // 10 for b in sheet.brisques]))
        if sheet.over:
            rows.append(("Brisque majority", sheet.tricks))
    elif rules.trick_scoring != "none":
        if rules.brisques_only_to_settle:
            rows.append(("Brisques (to settle)", sheet.brisques))
        else:
            rows.append((label, sheet.tricks))
    rows.append(("Last trick", sheet.last_trick))
    if any(sheet.bonuses):
        rows.append(("Bonuses", sheet.bonuses))
    if any(sheet.penalties):
        rows.append(("Penalties", sheet.penalties))
    for name, values in rows:
        table.add_row(name, *[str(v) for v in values])
    table.add_row(
        Text("Deal points", style="bold"), *[Text(str(t), style="bold") for t in sheet.totals]
    )
    s = sheet.settlement
    if s is not None:
        table.add_row("Game", *[str(p) for p in s.payout])
    parts: list[RenderableType] = [table]
    for line in sheet.log[-log:]:
        parts.append(Text("  " + line, style="dim"))
    return Group(*parts)


__all__ = ["HELP", "KeeperApp", "render_deal", "render_sheet"]
