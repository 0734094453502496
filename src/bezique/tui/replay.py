"""Stepping through a game record in the terminal.

The positions come from :meth:`GameRecord.states`; each is shown from one seat's view (its
observation, so exactly what that player saw then) or, with ``seat=None``, from the public view
with every hand turned face up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from ..core.deal import Deal
from ..core.records import GameRecord
from . import lineedit
from .render import notation_text, render_observation, scores_line, seat_names, side_names

Ask = Callable[[str], str]

HELP = "Enter: next   b: back   a number: go to that step   d N: start of deal N   e: end   q: quit"


@dataclass
class Step:
    """One position of the record."""

    deal_index: int
    ply: int
    action: str | None
    """The action that led here (None at the start of a deal)."""
    actor: int | None
    """The seat that made it."""
    deal: Deal


class Replayer:
    """Holds the steps of a record and shows them one at a time."""

    def __init__(
        self,
        record: GameRecord,
        *,
        seat: int | None = 0,
        console: Console | None = None,
        ask: Ask | None = None,
        clear: bool | None = None,
    ) -> None:
        self.record = record
        n = record.rules.players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"--seat must be a seat from 0 to {n - 1}: got {seat}")
        self.seat = seat
        self.console = console if console is not None else Console(highlight=False)
        self._ask = ask
        self.clear = self.console.is_terminal if clear is None else clear
        self.steps: list[Step] = []
        before: Deal | None = None
        for i, ply, action, deal in record.states():
            actor = before.to_move if before is not None and action is not None else None
            self.steps.append(Step(i, ply, action, actor, deal))
            before = deal
        if not self.steps:
            raise ValueError("the record holds no deal")
        self.totals_before = self._totals()

    def _totals(self) -> list[list[int]]:
        """Match totals before each deal (the points of the deals finished before it)."""
        rules = self.record.rules
        finals: dict[int, Deal] = {}
        for step in self.steps:
            finals[step.deal_index] = step.deal
        out = []
        running = [0] * rules.sides
        for i in sorted(finals):
            out.append(list(running))
            d = finals[i]
            if d.is_over:
                running = [a + b for a, b in zip(running, d.points, strict=False)]
        return out

    def scores_at(self, step: Step) -> list[int]:
        """Match totals as they stood at a step."""
        base = self.totals_before[step.deal_index]
        if step.deal.is_over and step.deal_index == self.steps[-1].deal_index:
            return list(self.record.scores)  # the record's own totals, adjustments included
        if step.deal.is_over:
            return [a + b for a, b in zip(base, step.deal.points, strict=False)]
        return base

    def ask(self, prompt: str) -> str:
        if self._ask is not None:
            return self._ask(prompt)
        if lineedit.enable("replay"):  # arrow keys edit the line and recall earlier entries
            return lineedit.read_line(prompt)
        return self.console.input(Text(prompt, style="bold"))

    def show(self, index: int) -> None:
        """Draw step ``index``."""
        step = self.steps[index]
        rules = self.record.rules
        names = seat_names(rules, self.record.players)
        deal = step.deal
        if self.seat is None:
            obs = deal.observation(None)
            reveal = {s: deal.observation(s).hand for s in range(rules.players)}
        else:
            obs = deal.observation(self.seat)
            reveal = None
        deals = 1 + max(s.deal_index for s in self.steps)
        head = Text(
            f"Step {index} of {len(self.steps) - 1} · deal {step.deal_index + 1} of {deals}"
            f" · action {step.ply}: ",
            style="bold",
        )
        if step.action is None:
            head.append("start of the deal", style="italic")
        else:
            who = names[step.actor] if step.actor is not None else "?"
            head.append(who + " ")
            head.append_text(notation_text(step.action))
        if self.clear:
            self.console.clear()
        self.console.print(head)
        view = "everything" if self.seat is None else f"as {names[self.seat]} saw it"
        self.console.print(
            render_observation(
                obs,
                names,
                scores=self.scores_at(step),
                deal_number=step.deal_index + 1,
                reveal=reveal,
                show_legal=False,
                title=f"Replay · {rules} · {view}",
            )
        )
        if index == len(self.steps) - 1:
            self._end_note()

    def _end_note(self) -> None:
        record = self.record
        sides = side_names(record.rules, record.players)
        text = Text("End of the record. ", style="bold")
        text.append("Scores: ")
        text.append_text(scores_line(sides, record.scores))
        if record.kind == "match":
            if record.winner is not None:
                text.append(f". {sides[record.winner]} won the match.")
            else:
                text.append(". The match was not finished.")
        self.console.print(text)

    def run(self) -> int:
        """Step through until quit (or past the end); the exit status."""
        i = 0
        last = len(self.steps) - 1
        self.show(i)
        self.console.print(Text(HELP, style="dim"))
        while True:
            try:
                line = self.ask("replay> ").strip().lower()
            except EOFError:
                return 0
            if line in ("q", "quit", "exit"):
                return 0
            if line in ("", "n", "next"):
                if i == last:
                    return 0
                i += 1
            elif line in ("b", "back", "p"):
                if i == 0:
                    self.console.print(Text("Already at the start.", style="red"))
                    continue
                i -= 1
            elif line in ("e", "end"):
                i = last
            elif line in ("h", "help", "?"):
                self.console.print(Text(HELP))
                continue
            elif line.isdigit():
                j = int(line)
                if j > last:
                    self.console.print(
                        Text(f"No step {j}: steps go from 0 to {last}.", style="red")
                    )
                    continue
                i = j
            elif line.startswith("d") and line[1:].strip().isdigit():
                d = int(line[1:].strip()) - 1
                starts = [
                    k for k, s in enumerate(self.steps) if s.deal_index == d and s.action is None
                ]
                if not starts:
                    self.console.print(Text(f"No deal {d + 1} in this record.", style="red"))
                    continue
                i = starts[0]
            else:
                self.console.print(Text(f"Unknown command {line!r}. {HELP}", style="red"))
                continue
            self.show(i)


def replay_record(
    record: GameRecord,
    *,
    seat: int | None = 0,
    console: Console | None = None,
    ask: Ask | None = None,
) -> int:
    """Step through a record in the terminal; the exit status."""
    return Replayer(record, seat=seat, console=console, ask=ask).run()


__all__ = ["HELP", "Replayer", "Step", "replay_record"]
