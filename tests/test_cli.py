"""The `bezique` command: rules, play driven by scripted input, records and replays."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from bezique import Deal, Rules
from bezique.cli import app
from bezique.cli.common import build_rules
from bezique.core.records import GameRecord
from bezique.tui.game import TerminalGame
from bezique.tui.render import render_observation, text

runner = CliRunner()
ENOUGH = "1\n" * 3000  # always the first choice, Enter between deals


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


# --- rules -----------------------------------------------------------------------------------------
def test_rules_in_plain_words() -> None:
    code, out = run("rules")
    assert code == 0
    for words in (
        "Two players",
        "64 cards",
        "Melds",
        "double bezique",
        "500",
        "trump sequence",
        "250",
        "exchange",
        "Stage 2",
        "follow suit",
        "last trick scores 10",
        "1000",
    ):
        assert words in out, words


def test_rules_follow_the_options() -> None:
    code, out = run("rules", "classic", "--option", "target=1500", "--option", "bezique=50")
    assert code == 0
    assert "1500" in out and "1000 points" not in out
    assert "│     50 │" in out or " 50 " in out


def test_rules_options_lists_every_option() -> None:
    code, out = run("rules", "--options", "--all", "--option", "meld_reuse=higher-score-only")
    assert code == 0
    for name in Rules.option_docs():
        assert name in out
    assert "meld_reuse = higher-score-only" in out and "(changed)" in out


def test_unknown_preset_is_a_clear_error() -> None:
    code, out = run("rules", "nosuch")
    assert code == 2
    assert "unknown preset 'nosuch'" in out and "classic" in out


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("nosuch=1", "unknown rule option 'nosuch'"),
        ("target=abc", "target must be a whole number"),
        ("meld_reuse=sideways", "meld_reuse must be one of"),
        ("target", "expected KEY=VALUE"),
        ("=5", "expected KEY=VALUE"),
    ],
)
def test_bad_options_are_one_line_errors(option: str, message: str) -> None:
    for command in (["rules"], ["play"]):
        code, out = run(*command, "--option", option)
        assert code == 2
        assert message in out
        assert len(out.strip().splitlines()) == 1


def test_build_rules_reads_values_as_rules_strings_do() -> None:
    rules = build_rules(
        "classic", ["target=1500", "meld_reuse=higher-score-only", "stage2_must_head=false"]
    )
    assert rules == Rules.from_string(
        "classic(target=1500,meld_reuse=higher-score-only,stage2_must_head=false)"
    )
    assert build_rules("classic(target=1500)", ["target=2000"]).target == 2000


def test_bad_play_arguments() -> None:
    code, out = run("play", "--opponent", "nobody")
    assert code == 2 and "random" in out and "simple" in out
    code, out = run("play", "--seat", "2")
    assert code == 2 and "seat" in out


def test_bots_command_lists_the_bots() -> None:
    code, out = run("bots")
    assert code == 0 and "random" in out and "simple" in out
    # every name stands apart from its description, and the families show their settings
    assert "expert " in out and "pimc-c " in out and "ismcts-c " in out
    assert "prior=heuristic" in out and "[heuristic|learned]" in out


# --- play and replay -------------------------------------------------------------------------------
def test_play_a_whole_match_then_replay_it(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out = run("play", "--seed", "3", "--save", str(save), "--name", "Tess", input=ENOUGH)
    assert code == 0
    assert "wins the match" in out or "win the match" in out
    assert "End of the deal" in out and "Match total" in out
    assert "Declarations" in out and "Brisques" in out and "Last trick" in out
    record = GameRecord.read(save)
    assert record.kind == "match" and record.winner is not None
    assert list(record.players) == ["Tess", "Computer"]
    assert max(record.scores) >= 1000

    steps = sum(1 for _ in record.states())
    code, out = run("replay", str(save), input="\n\nb\n5\nxyz\n99999\nd2\ne\nq\n")
    assert code == 0
    assert "Step 0 of" in out and "Step 2 of" in out and out.count("Step 1 of") == 2
    assert "Step 5 of" in out and f"Step {steps - 1} of {steps - 1}" in out
    assert "Unknown command 'xyz'" in out and "No step 99999" in out
    assert "deal 2 of" in out and "End of the record" in out and "won the match" in out

    # seat 1's view, everything, and Enter through to the end
    code, out = run("replay", str(save), "--seat", "1", input="q\n")
    assert code == 0 and "as Computer saw it" in out
    code, out = run("replay", str(save), "--all", input="\n" * (steps + 5))
    assert code == 0 and "everything" in out and "End of the record" in out


def test_play_is_the_same_game_from_the_same_seed(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run("play", "--seed", "11", "--save", str(a), input="1\n" * 15)[0] == 0
    assert run("play", "--seed", "11", "--save", str(b), input="1\n" * 15)[0] == 0
    assert json.loads(a.read_text())["deals"] == json.loads(b.read_text())["deals"]


def test_bad_entries_get_an_error_and_a_new_prompt(tmp_path: Path) -> None:
    save = tmp_path / "quit.json"
    script = "xyz\nplay ZZ\n99\n0\n\nmeld bezique QS JD\nhelp\nhand\nscore\nlog\nrules\nquit\nn\n1\nquit\ny\n"
    code, out = run("play", "--seed", "5", "--save", str(save), input=script)
    assert code == 0
    assert "Traceback" not in out
    prompts = out.count("Your choice (")
    assert prompts >= 13
    assert "unknown action 'xyz'" in out.lower()
    assert "not a card: 'zz'" in out.lower()
    assert "You must play a card now, not meld" in out
    assert "there is no choice 99" in out and "there is no choice 0" in out
    assert "How to answer" in out and "Hand " in out and "This deal:" in out
    assert "Really quit?" in out and "Game stopped" in out
    record = GameRecord.read(save)
    assert record.winner is None and len(record.deals[0].actions) >= 1


def test_end_of_input_quits_and_saves(tmp_path: Path) -> None:
    save = tmp_path / "eof.json"
    code, out = run("play", "--seed", "8", "--save", str(save), "--seat", "1", input="1\n1\n1\n")
    assert code == 0 and "Game stopped" in out
    assert GameRecord.read(save).players == ("Computer", "You")


def test_replay_of_a_missing_or_garbled_file(tmp_path: Path) -> None:
    code, out = run("replay", str(tmp_path / "missing.json"))
    assert code == 2 and "no such file" in out and len(out.strip().splitlines()) == 1
    garbled = tmp_path / "garbled.json"
    garbled.write_text('{"format": "bezique-record/1", "rules": ')
    code, out = run("replay", str(garbled))
    assert code == 2 and "garbled.json" in out and "JSON" in out
    wrong = tmp_path / "wrong.json"
    wrong.write_text("[1, 2, 3]\n")
    code, out = run("replay", str(wrong))
    assert code == 2 and "wrong.json" in out
    code, out = run("replay", str(garbled), "--all", "--seat", "1")
    assert code == 2


# --- the game loop without the command line ----------------------------------------------------
def quiet_console() -> Console:
    return Console(file=io.StringIO(), width=100, color_system=None)


def test_typed_notation_plays_a_whole_match() -> None:
    """Answer every prompt by typing the first legal action (a card alone for plays)."""
    console = quiet_console()
    game: TerminalGame

    def ask(prompt: str) -> str:
        if not prompt.startswith("Your choice"):
            return ""
        action = game.observation().legal[-1]
        return action.split()[1].lower() if action.startswith("play ") else action.upper()

    game = TerminalGame(
        Rules.preset("classic", target=300), seed=2, console=console, ask=ask, opponent="random"
    )
    assert game.run() == 0
    assert game.match.winner is not None
    assert "the match" in console.file.getvalue()  # type: ignore[attr-defined]


def test_the_picture_shows_only_what_the_seat_may_see() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=9)
    for _ in range(11):
        deal.apply(deal.legal_actions()[0])
    obs = deal.observation(0)
    picture = text(obs, ["Ann", "Bob"])
    # two worlds that look the same to seat 0 give the same picture
    for seed in (1, 2):
        other = Deal.from_observation(obs, seed).observation(0)
        assert text(other, ["Ann", "Bob"]) == picture
    assert "cards in hand" in picture and "Ann" in picture and "Bob" in picture
    assert render_observation(obs) is not None
