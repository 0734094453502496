"""A match against the computer in the terminal: the input loop around :mod:`.render`.

Every picture is drawn from ``deal.observation(seat)`` of the human's seat, and each computer
player gets only its own observation.  Input comes through ``ask(prompt) -> str``, so tests can
drive a whole match with scripted lines; ``EOFError`` from it quits (saving first).
"""

from __future__ import annotations

import datetime
import os
import secrets
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from .. import __version__
from ..bots import Bot, make
from ..core.cards import parse_card
from ..core.match import Match
from ..core.notation import IllegalAction
from ..core.observation import Observation
from ..core.rules import Rules
from . import lineedit
from .hints import figures_text, hint_words
from .render import (
    card_label,
    does,
    game_text,
    hand_text,
    log_lines,
    render_deal_end,
    render_observation,
    render_scores,
    scores_line,
    side_names,
    table_text,
)
from .rules_text import render_rules

Ask = Callable[[str], str]
"""Reads one line of input after showing a prompt (``input`` is one)."""

HELP = """\
[bold]How to answer[/bold]
  a number          choose that line of the list of legal actions
  notation          type the action: play QS · play 10D · meld bezique QS JD ·
                    meld marriage KH QH · exchange 7H · pass
  a card alone      QS means play QS
  Cards are a rank (A, 10 or T, K, Q, J, 9, 8, 7) and a suit (S, H, D, C), upper or lower case.
  A declared card is played from the table with @table (play QS@table) when you also hold
  a concealed one; the list shows which is which.

[bold]Commands[/bold]
  hand     your hand and your declared cards
  score    points of this deal and the match
  log      every trick and score of this deal
  rules    the rules of this game
  help     this text
  hint     the expert's suggestion in plain words (--hints: every turn)
  hint more  the same with the values the search compared
  undo     take back your last move and the computer's answer to it (this deal only)
  quit     stop playing (asks first; the game is saved, to continue with --resume)"""


class QuitGame(Exception):
    """The player chose to stop."""


class TerminalGame:
    """One match between a person at the terminal and computer players.

    ``ask`` reads a line (default: the console's input); ``clear``: clear the screen before
    each picture (default: when the console is a terminal).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        opponent: str = "simple",
        seed: int | None = None,
        seat: int = 0,
        name: str = "You",
        save: str | os.PathLike[str] | None = None,
        console: Console | None = None,
        ask: Ask | None = None,
        clear: bool | None = None,
        hints: bool = False,
        match: Match | None = None,
        quit_save: str | os.PathLike[str] | None = None,
    ) -> None:
        self.rules = rules if rules is not None else Rules.preset("classic")
        if match is not None and match.seed is None:
            raise ValueError("a match to continue must have its seed (it comes from a record)")
        n = self.rules.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"--seat must be a seat from 0 to {n - 1}: got {seat}")
        self.seat = seat
        if match is not None:
            assert match.seed is not None
            self.seed = match.seed
            self.match = match
        else:
            self.seed = seed if seed is not None else secrets.randbelow(2**31)
            self.match = Match(self.rules, seed=self.seed)
        self.opponent = opponent
        self.undos = 0
        """Moves taken back with undo (written in the record's meta)."""
        self.bots: dict[int, Bot] = self._make_bots()
        self.names = _names(self.rules, seat, name.strip() or "You")
        self.save_path = Path(save) if save is not None else None
        self.quit_save = Path(quit_save) if quit_save is not None else None
        """Where to save on quitting when no --save file was given (None: nowhere)."""
        self.resumed = match is not None
        self.console = console if console is not None else Console(highlight=False)
        self._ask = ask
        self.clear = self.console.is_terminal if clear is None else clear
        self.saved_ok: bool | None = None
        self.hints = hints
        """Show the expert's suggestion before each of the player's choices."""
        self.notes: list[Text] = []
        """Lines to show under the next picture (the screen is cleared before each one)."""

    def _make_bots(self) -> dict[int, Bot]:
        """A fresh computer player for each other seat: after an undo none may remember the
        moves taken back (it would know cards of the player's hand it never saw played)."""
        n = self.rules.players
        base = self.seed + 1 + 1000 * self.undos
        return {s: make(self.opponent, seed=base + s) for s in range(n) if s != self.seat}

    @classmethod
    def resume(
        cls,
        path: str | os.PathLike[str],
        *,
        opponent: str | None = None,
        console: Console | None = None,
        ask: Ask | None = None,
        clear: bool | None = None,
        hints: bool = False,
        save: str | os.PathLike[str] | None = None,
    ) -> TerminalGame:
        """Continue the match saved in a record written by ``bezique play`` (the deals, the
        deal in progress and whose turn it is all come from replaying it); the game goes on
        being saved to the same file unless ``save`` names another.  ValueError (saying what
        is wrong) for a missing or bad file or a match that is over."""
        from ..core.records import GameRecord, RecordError

        p = Path(path)
        try:
            record = GameRecord.read(p)
        except RecordError as e:
            raise ValueError(str(e)) from None
        except OSError as e:
            raise ValueError(f"cannot read {p}: {e.strerror or e}") from None
        if record.kind != "match" or record.seed is None:
            raise ValueError(f"{p} holds a single deal, not a match to continue")
        try:
            match = record.replay()
        except RecordError as e:
            raise ValueError(f"{p}: {e}") from None
        assert isinstance(match, Match)
        if match.winner is not None:
            raise ValueError(f"the match in {p} is over: start a new one with bezique play")
        meta = record.meta
        seat_text = meta.get("seat", "0")
        seat = int(seat_text) if seat_text.isdigit() else 0
        if seat >= record.rules.players:  # the record's own seat, not a --seat given
            raise ValueError(
                f"{p}: its seat {seat} is no seat of this {record.rules.players}-player game"
            )
        game = cls(
            record.rules,
            opponent=opponent or meta.get("opponent", "simple"),
            seat=seat,
            name=record.players[seat] if seat < len(record.players) else "You",
            save=save if save is not None else p,
            console=console,
            ask=ask,
            clear=clear,
            hints=hints,
            match=match,
        )
        game.names = list(record.players)
        undos = meta.get("undos", "0")
        game.undos = int(undos) if undos.isdigit() else 0
        game.bots = game._make_bots()  # as they were after the last undo
        return game

    # --- input and output ------------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        """One line of input (``EOFError`` when there is no more)."""
        if self._ask is not None:
            return self._ask(prompt)
        if lineedit.enable("play"):  # arrow keys edit the line and recall earlier entries
            return lineedit.read_line(prompt)
        return self.console.input(Text(prompt, style="bold"))

    def say(self, message: str, style: str = "") -> None:
        """Print a line of plain text (no markup)."""
        self.console.print(Text(message, style=style))

    def error(self, message: str) -> None:
        """Print a short error for a wrong entry."""
        self.console.print(Text("✗ ", style="bold red") + Text(message, style="red"))

    def save(self, quitting: bool = False) -> None:
        """Write the game record, if a file was given (on quitting, to ``quit_save`` when no
        --save file was)."""
        if self.save_path is None and quitting and self.quit_save is not None:
            self.save_path = self.quit_save
        if self.save_path is None:
            return
        try:
            from ..core.records import record_match

            meta = {
                "program": f"bezique {__version__} play",
                "opponent": self.opponent,
                "seat": str(self.seat),
                "date": datetime.date.today().isoformat(),
            }
            if self.undos:
                meta["undos"] = str(self.undos)
            record_match(self.match, players=self.names, meta=meta).write(self.save_path)
            self.saved_ok = True
        except (OSError, ValueError, ImportError) as e:
            self.saved_ok = False
            self.error(f"could not save the game to {self.save_path}: {e}")

    # --- the match -----------------------------------------------------------------------------
    def run(self) -> int:
        """Play the match to its end (or until the player quits); the exit status."""
        try:
            self._intro()
            while True:
                if self.match.deal.is_over:  # resumed between two deals
                    self.match.next_deal()
                self._play_deal()
                self.save()
                self._deal_over()
                winner = self.match.winner
                if winner is not None:
                    self._match_over(winner)
                    return 0
                line = self._read("Press Enter for the next deal (or type quit): ")
                if line.strip().lower() in ("quit", "q", "exit") and self._confirm_quit():
                    raise QuitGame
                self.match.next_deal()
                dealer = self.match.deal.dealer
                self.notes.append(
                    Text(f"Deal {len(self.match.deals)}: {self.names[dealer]} dealt.", style="bold")
                )
        except QuitGame:
            self.save(quitting=True)
            self.say("Game stopped.", "bold")
            self._saved_note()
            return 0
        except KeyboardInterrupt:
            self.save(quitting=True)
            self.say("\nInterrupted.", "bold")
            self._saved_note()
            return 130

    def _saved_note(self) -> None:
        if self.save_path is not None and self.saved_ok and self.match.winner is None:
            self.say(
                f"Saved to {self.save_path}: continue with bezique play --resume {self.save_path}"
            )

    def _intro(self) -> None:
        sides = side_names(self.rules, self.names)
        self.notes.append(
            Text.assemble(
                (f"Bezique ({self.rules}): ", "bold"),
                " against ".join(sides),
                f" ({game_text(self.rules)}).  Type help at any prompt.  Seed {self.seed}.",
            )
        )
        if self.resumed:
            self.notes.append(
                Text(
                    f"Continuing the saved match: deal {len(self.match.deals)}, "
                    + ("between deals." if self.match.deal.is_over else "as it was left."),
                    style="bold",
                )
            )
            return
        cut = getattr(self.match, "cut", None)
        if cut:
            dealer = self.match.first_dealer
            self.notes.append(
                Text(
                    "Cut for deal: "
                    + ", ".join(f"{self.names[s]} {card_label(c)}" for s, c in enumerate(cut))
                    + f"; {does(self.names[dealer], 'deal')} first."
                )
            )

    def _read(self, prompt: str) -> str:
        try:
            return self.ask(prompt)
        except EOFError:
            self.say("")
            raise QuitGame from None

    def _confirm_quit(self) -> bool:
        where = self.save_path or self.quit_save
        extra = f" The game will be saved to {where}." if where is not None else ""
        answer = self._read(f"Really quit?{extra} [y/N] ")
        return answer.strip().lower() in ("y", "yes")

    def _play_deal(self) -> None:
        deal = self.match.deal
        if getattr(self.rules, "dealer_sits_out", False) and deal.dealer == self.seat:
            self.say("You deal, and sit this deal out while the others play it.", "bold")
        while not self.match.deal.is_over:
            deal = self.match.deal  # read again each time: an undo rebuilds the match
            seat = deal.to_move
            assert seat is not None
            if seat == self.seat:
                self._human_turn()
            else:
                obs = deal.observation(seat)
                deal.apply(self.bots[seat].choose(obs))

    def observation(self) -> Observation:
        """The human seat's view of the current deal."""
        return self.match.deal.observation(self.seat)

    def _show(self, obs: Observation) -> None:
        if self.clear:
            self.console.clear()
        # as much of the deal's story as the screen has room for
        log = max(3, min(12, self.console.size.height - 22)) if self.clear else 8
        self.console.print(
            render_observation(
                obs,
                self.names,
                scores=self.match.scores,
                deal_number=len(self.match.deals),
                log=log,
            )
        )
        for note in self.notes:
            self.console.print(note)
        self.notes.clear()

    def _human_turn(self) -> None:
        deal = self.match.deal
        obs = self.observation()
        self._show(obs)
        if self.hints:
            self._hint(obs)
        n = len(obs.legal)
        while True:
            line = self._read(f"Your choice (1-{n}, notation, or help): ").strip()
            word = line.lower()
            if not line:
                self.error(f"type a number from 1 to {n}, an action such as 'play QS', or help")
                continue
            if word in ("help", "?", "h"):
                self.console.print(HELP)
                continue
            if word in ("quit", "exit", "q"):
                if self._confirm_quit():
                    raise QuitGame
                continue
            if word == "hand":
                self.console.print(Text.assemble(("Hand   ", "bold"), hand_text(obs.hand)))
                self.console.print(
                    Text.assemble(("Table  ", "bold"), table_text(obs.tables[self.seat]))
                )
                continue
            if word in ("score", "scores"):
                self.console.print(render_scores(obs, self.names, self.match.scores))
                continue
            if word in ("log", "history"):
                for entry in log_lines(obs, self.names) or [Text("No tricks yet.")]:
                    self.console.print(entry)
                continue
            if word == "rules":
                self.console.print(render_rules(self.rules))
                continue
            if word == "board":
                self._show(obs)
                continue
            if word in ("hint", "hint more", "hint figures", "why"):
                self._hint(obs, figures=word != "hint")
                continue
            if word in ("undo", "u", "take back"):
                if self._undo():
                    return
                continue
            if line.isdigit():
                i = int(line)
                if not 1 <= i <= n:
                    self.error(f"there is no choice {i}: choose 1 to {n}")
                    continue
                action = obs.legal[i - 1]
            else:
                action = _as_action(line)
            try:
                deal.apply(action)
            except (IllegalAction, ValueError) as e:
                self.error(self._personal(_short(str(e))))
                continue
            return

    def _hint(self, obs: Observation, figures: bool = False) -> None:
        """Print the expert's suggestion in plain words (with the values the search compared
        when ``figures``); the expert sees only this seat's observation."""
        from ..bots import hint

        found = hint(obs)
        self.console.print(hint_words(obs, str(found.action), found.level))
        if figures:
            self.console.print(figures_text(found.values, found.reason))

    def undo_points(self) -> list[int]:
        """Plies of the current deal at which this seat was to move (the positions undo can go
        back to), found by replaying the deal from its record."""
        from ..core.records import record_match

        record = record_match(self.match, players=self.names)
        last = len(record.deals) - 1
        out: list[int] = []
        before = None
        for i, ply, action, deal in record.states():
            if i != last:
                continue
            if action is not None and before is not None and before.to_move == self.seat:
                out.append(ply - 1)
            before = deal
        return out

    def _undo(self) -> bool:
        """Take back this seat's last move of the deal and everything after it (the computer's
        answers).  The deal is rebuilt by replaying its record, so the cards are those dealt;
        the computer players are made afresh so none remembers a move taken back.  What the
        player saw meanwhile stays seen: the record counts the undos (meta ``undos``)."""
        import dataclasses

        from ..core.records import record_match

        points = self.undo_points()
        if not points:
            self.error("nothing to undo in this deal (undo goes back within the deal only)")
            return False
        ply = points[-1]
        record = record_match(self.match, players=self.names)
        deals = list(record.deals)
        deals[-1] = dataclasses.replace(deals[-1], actions=deals[-1].actions[:ply], points=None)
        rebuilt = dataclasses.replace(record, deals=tuple(deals), winner=None).replay()
        assert isinstance(rebuilt, Match)
        self.match = rebuilt
        self.undos += 1
        self.bots = self._make_bots()
        left = len(points) - 1  # the moves of yours still before this one in the deal
        more = (
            f"{left} more can be taken back in this deal" if left else "none is left to take back"
        )
        self.notes.append(Text(f"Took back your last move; {more}.", "yellow"))
        return True

    def _personal(self, message: str) -> str:
        """An engine message about this seat, addressed to the player."""
        me = f"seat {self.seat} "
        message = message.replace(me + "does not", "you do not").replace(me, "you ")
        return message[:1].upper() + message[1:]

    def _deal_over(self) -> None:
        deal = self.match.deal
        obs = deal.observation(self.seat)
        if self.clear:
            self.console.clear()
        self.console.print(Text(f"Deal {len(self.match.deals)} is over.", style="bold underline"))
        for line in log_lines(obs, self.names)[-4:]:
            self.console.print(line)
        self.console.print(render_deal_end(obs, deal.result, self.names, scores=self.match.scores))
        if deal.ended_early:
            self.say("The target was reached during the deal: it ended there.", "bold")
        self._game_over_note()
        if self.save_path is not None and self.saved_ok:
            self.say(f"Game saved to {self.save_path}.", "dim")

    def _game_over_note(self) -> None:
        """In a match of games (``match_games``): who won the game just ended, and the counts."""
        match = self.match
        if not self.rules.match_games or match.game_winner is None:
            return
        game = match.games[-1]
        sides = side_names(self.rules, self.names)
        counts = scores_line(sides, game.counts).plain
        self.say(
            f"{does(sides[game.winner], 'win')} game {len(match.games)}"
            + (" en bas table (it counts double)" if game.double else "")
            + f". Match count: {counts} (first to {self.rules.match_games}). "
            + ("Scores start again from 0." if match.winner is None else ""),
            "bold",
        )

    def _match_over(self, winner: int) -> None:
        sides = side_names(self.rules, self.names)
        scores = self.match.scores
        others = scores_line(
            [sides[s] for s in range(len(sides)) if s != winner],
            [scores[s] for s in range(len(sides)) if s != winner],
        ).plain
        won = self.rules.side_of(self.seat) == winner
        self.console.print(
            Text(
                f"\n{does(sides[winner], 'win')} the match with {scores[winner]} ({others}).",
                style="bold green" if won else "bold yellow",
            )
        )
        self.say("Well played!" if won else "Better luck next time.")


def _names(rules: Rules, seat: int, name: str) -> list[str]:
    n = rules.players
    if n == 2:
        return [name if s == seat else "Computer" for s in range(n)]
    out = []
    count = 0
    for s in range(n):
        if s == seat:
            out.append(name)
            continue
        partner = rules.partnerships and rules.side_of(s) == rules.side_of(seat)
        if partner:
            out.append("Partner")
            continue
        count += 1
        out.append(f"Computer {count}")
    return out


def _as_action(line: str) -> str:
    """Typed text as notation: a card alone means playing it."""
    words = line.split()
    if len(words) == 1:
        try:
            parse_card(words[0].partition("@")[0])
        except ValueError:
            return line
        return "play " + words[0]
    return line


def _short(message: str, limit: int = 200) -> str:
    """An engine message cut to a readable length: without the list of legal actions (the
    screen numbers them), and cut between words, never inside one."""
    message = " ".join(message.split())
    head, sep, _ = message.partition("; legal: ")
    if sep:
        message = head + "; the list above shows what you may do"
    if len(message) <= limit:
        return message
    cut = message.rfind(" ", 0, limit - 1)
    return message[: cut if cut > 0 else limit - 1].rstrip(" ,;:") + " …"


def play_match(
    rules: Rules,
    *,
    opponent: str = "simple",
    seed: int | None = None,
    seat: int = 0,
    name: str = "You",
    save: str | os.PathLike[str] | None = None,
    console: Console | None = None,
    ask: Ask | None = None,
) -> int:
    """Play a match in the terminal; the exit status."""
    game = TerminalGame(
        rules,
        opponent=opponent,
        seed=seed,
        seat=seat,
        name=name,
        save=save,
        console=console,
        ask=ask,
    )
    return game.run()


__all__ = ["HELP", "Ask", "QuitGame", "TerminalGame", "play_match"]
