"""The terminal and the score-keeper's prompt: line editing,
resuming a saved game, undo, hints in plain words, the score line, and the keeper's messages."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from bezique import Deal, Observation, Rules
from bezique.bots.hint import Hint
from bezique.cli import app
from bezique.core.match import Match
from bezique.core.notation import Action
from bezique.core.records import GameRecord
from bezique.keeper import Keeper
from bezique.tui import lineedit
from bezique.tui.game import TerminalGame, _short
from bezique.tui.hints import hint_words, meld_groups
from bezique.tui.keeper import KeeperApp
from bezique.tui.render import text
from bezique.tui.replay import Replayer

runner = CliRunner()


def quiet() -> Console:
    return Console(file=io.StringIO(), width=110, color_system=None)


def output(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def lines(*answers: str) -> Iterator[str]:
    yield from answers


def script(*answers: str) -> Callable[[str], str]:
    it = lines(*answers)

    def ask(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return ask


# --- 13: line editing and history ------------------------------------------------------------------
def test_history_file_follows_the_environment(tmp_path: Path) -> None:
    assert lineedit.history_path("play", {"XDG_STATE_HOME": str(tmp_path)}) == (
        tmp_path / "bezique" / "play-history"
    )
    assert lineedit.history_path("keep", {"HOME": str(tmp_path)}) == (
        tmp_path / ".local/state/bezique/keep-history"
    )
    assert lineedit.history_path("play", {"BEZIQUE_HISTORY": "0", "HOME": "/x"}) is None


def test_no_line_editing_without_a_terminal() -> None:
    assert lineedit.enable("play", stdin_is_tty=False) is False


def test_history_is_written_and_read_back(tmp_path: Path) -> None:
    readline = pytest.importorskip("readline")
    path = tmp_path / "state" / "bezique" / "keep-history"
    readline.clear_history()
    readline.add_history("Ann bezique QS JD")
    assert lineedit.save_history(readline, path)
    readline.clear_history()
    lineedit.load_history(readline, path)
    assert readline.get_history_item(1) == "Ann bezique QS JD"
    lineedit.load_history(readline, tmp_path / "missing")  # no file: an empty history, no error
    assert readline.get_current_history_length() == 0


class FakeReadline(ModuleType):
    def __init__(self) -> None:
        super().__init__("readline")
        self.loaded: list[str] = []

    def clear_history(self) -> None:
        pass

    def read_history_file(self, path: str) -> None:
        self.loaded.append(path)


def test_every_prompt_reads_through_readline_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """At a terminal the three prompts (play, replay, keep) read with input(prompt) after
    readline is loaded with that command's history; the prompt goes to input() so that readline
    can redraw the line."""
    fake = FakeReadline()
    monkeypatch.setattr(lineedit, "_readline", lambda: fake)
    monkeypatch.setattr(lineedit, "_active", {})
    monkeypatch.setattr("bezique.tui.lineedit.atexit.register", lambda *a: None)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        return "q"

    monkeypatch.setattr("builtins.input", fake_input)
    game = TerminalGame(seed=1, console=quiet())
    assert game.ask("Your choice: ") == "q"
    record = GameRecord.from_json(_saved_game_json())
    assert Replayer(record, console=quiet()).ask("replay> ") == "q"
    assert KeeperApp(Keeper(Rules.preset("classic")), quiet()).ask("entry: ") == "q"
    assert [p.replace("\001\033[1m\002", "").replace("\001\033[0m\002", "") for p in prompts] == [
        "Your choice: ",
        "replay> ",
        "entry: ",
    ]
    assert sorted(Path(p).name for p in fake.loaded) == [
        "keep-history",
        "play-history",
        "replay-history",
    ]


def _saved_game_json() -> str:
    game = TerminalGame(seed=4, console=quiet(), ask=script("1", "1"), save=None)
    game.run()
    from bezique.core.records import record_match

    return record_match(game.match, players=game.names).to_json()


# --- 14: resume -------------------------------------------------------------------------------------
def test_a_quit_game_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = TerminalGame(
        seed=12, console=quiet(), ask=script("1", "2", "1", "quit", "y"), save=path
    )
    assert first.run() == 0
    history = list(first.match.deal.history)
    again = TerminalGame.resume(path, console=quiet(), ask=script())
    assert list(again.match.deal.history) == history
    assert again.match.deal.to_move == first.match.deal.to_move == 0
    assert again.seed == 12 and again.opponent == "simple" and again.names == first.names
    # the deal goes on with the same cards: the next picture is the one the first game showed
    assert again.observation() == first.observation()


def test_quitting_without_save_saves_for_resume(tmp_path: Path) -> None:
    quit_file = tmp_path / "auto.json"
    console = quiet()
    game = TerminalGame(seed=3, console=console, ask=script("1", "quit", "y"), quit_save=quit_file)
    assert game.run() == 0
    assert quit_file.exists()
    assert f"bezique play --resume {quit_file}" in " ".join(output(console).split())


def test_resume_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = runner.invoke(app, ["play", "--seed", "5", "--save", str(path)], input="1\nquit\ny\n")
    assert result.exit_code == 0
    result = runner.invoke(app, ["play", "--resume", str(path)], input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "Continuing the saved match" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--resume", "missing.json"], "missing.json: no such file"),
        (["--resume", "bad.json"], "bad.json"),
        (["--resume", "bad.json", "--seed", "3"], "leave out --seed"),
    ],
)
def test_resume_errors_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text("{not json")
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_a_finished_match_cannot_be_resumed(tmp_path: Path) -> None:
    path = tmp_path / "done.json"
    game = TerminalGame(
        Rules.preset("classic", target=200), seed=2, console=quiet(), ask=lambda p: "1", save=path
    )
    assert game.run() == 0 and game.match.winner is not None
    with pytest.raises(ValueError, match="is over"):
        TerminalGame.resume(path)


# --- 16: undo ---------------------------------------------------------------------------------------
def test_undo_takes_back_the_last_move_and_the_answer(tmp_path: Path) -> None:
    """Undo goes back to this seat's last decision; the deal is rebuilt from its record, so it
    is the same deal (the same cards) with the later actions gone, and the record counts it."""
    path = tmp_path / "u.json"
    seen: list[tuple[str, ...]] = []
    game: TerminalGame

    answers = iter(["1", "1", "1"])

    def ask(prompt: str) -> str:
        if not prompt.startswith("Your choice"):
            raise EOFError
        seen.append(tuple(game.match.deal.history))
        if len(seen) == 4:
            return "undo"
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    game = TerminalGame(seed=21, console=quiet(), ask=ask, save=path)
    game.run()
    # the fifth prompt is at the third decision's position again
    assert seen[4] == seen[2]
    assert game.undos == 1
    record = GameRecord.read(path)
    assert record.meta["undos"] == "1"
    # the same cards as dealt at the start, and the saved record replays to the same position
    assert game.match.deals[0].initial == Match(game.rules, seed=21).deals[0].initial
    replayed = record.replay()
    assert isinstance(replayed, Match)
    assert replayed.deal.history == game.match.deal.history


def test_undo_rebuilds_the_computer_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """No computer player keeps what it saw of a move taken back: each is made afresh."""
    game = TerminalGame(seed=21, console=quiet(), ask=script("1", "undo"))
    before = dict(game.bots)
    game.run()
    assert all(game.bots[s] is not before[s] for s in before)


def test_nothing_to_undo_at_the_start_of_a_deal() -> None:
    console = quiet()
    game = TerminalGame(seed=8, seat=1, console=console, ask=script("undo"))
    game.run()
    assert "nothing to undo in this deal" in output(console)


# --- 15: hints in plain words -----------------------------------------------------------------------
def test_hints_are_plain_words_in_card_symbols() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=9)
    obs = deal.observation(deal.to_move)
    action = next(a for a in obs.legal if a.startswith("play "))
    words = hint_words(obs, action).plain
    assert words.startswith("Hint (expert): play ")
    assert any(s in words for s in "♠♥♦♣")
    assert action.split()[1] not in words  # the symbols, not the notation's letters


def test_a_hint_names_the_meld_it_keeps() -> None:
    """A play that keeps a marriage in hand says so, with the cards in symbols."""
    rules = Rules.preset("classic")
    for seed in range(60):
        deal = Deal.new(rules, seed=seed)
        obs = deal.observation(deal.to_move)
        groups = meld_groups(obs)
        used = {c for _, cards in groups for c in cards}
        for words, cards in groups:
            others = [a for a in obs.legal if a.split()[1] not in used]
            if words == "marriage" and others and groups[0][0] == "marriage":
                said = hint_words(obs, others[0]).plain
                assert f"keeps your marriage ({cards[0][0]}" in said
                assert said.endswith(("loses nothing", "leads a trump", "opponent may take"))
                return
    raise AssertionError("no deal with a marriage in the first hand")


def test_hint_command_shows_figures_only_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    import bezique.bots as bots

    def fake_hint(obs: Observation, *a: Any, **k: Any) -> Hint:
        return Hint(Action.parse(obs.legal[0]), {obs.legal[0]: 12.5, obs.legal[1]: 3.0}, "why")

    monkeypatch.setattr(bots, "hint", fake_hint)
    console = quiet()
    TerminalGame(seed=2, console=console, ask=script("hint")).run()
    plain = output(console)
    assert "Hint (expert): play" in plain and "12.5" not in plain
    console = quiet()
    TerminalGame(seed=2, console=console, ask=script("hint more")).run()
    assert "12.5" in output(console) and "(-9.5)" in output(console)


# --- 19: the screen ---------------------------------------------------------------------------------
def test_score_line_shows_brisques_won() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=9)
    while len(deal.observation(0).tricks) < 6:
        deal.apply(deal.legal_actions()[0])
    picture = text(deal.observation(0), ["Ann", "Bob"], scores=[0, 0])
    assert "brisques won: Ann" in picture


def test_three_player_names_and_scores_are_apart() -> None:
    rules = Rules.preset("three")
    game = TerminalGame(rules, seed=1, console=quiet())
    picture = text(game.observation(), game.names, scores=[0, 0, 0])
    assert "Computer 1: 0" in picture and "Computer 2: 0" in picture


def test_three_player_replay_ends_with_names_and_scores_apart() -> None:
    from bezique.core.records import record_match

    game = TerminalGame(Rules.preset("three"), seed=1, console=quiet(), ask=script("1", "1"))
    game.run()
    console = quiet()
    replayer = Replayer(record_match(game.match, players=game.names), console=console)
    replayer.show(len(replayer.steps) - 1)
    assert "Scores: You: 0   Computer 1: 0   Computer 2: 0" in output(console)


def test_the_cut_is_shown_in_card_symbols() -> None:
    game = TerminalGame(seed=5, console=quiet())
    game._intro()
    cut = next(n.plain for n in game.notes if n.plain.startswith("Cut for deal"))
    assert any(s in cut for s in "♠♥♦♣")


def test_help_shows_flags_without_a_value() -> None:
    out = runner.invoke(app, ["--help"]).output
    assert "--version  " in out and "<bool>" not in out
    out = runner.invoke(app, ["play", "--help"]).output
    assert "--hints " in out and "<bool>" not in out and "--resume" in out


def test_long_messages_are_cut_between_words() -> None:
    message = "'meld marriage KH QS' does not score: a meld needs " + "the right cards " * 20
    short = _short(message + "; legal: meld royal-marriage KH QH, pass")
    assert short.endswith(" …") and "royal" not in short
    assert short[:-2].split()[-1] in message.split()
    assert "the list above" in _short("bad; legal: meld royal-marriage KH QH")


# --- 18: the keeper -----------------------------------------------------------------------------------
def classic() -> Keeper:
    k = Keeper(Rules.preset("classic"), ["Ann", "Bob"])
    k.new_deal(turn_up="9H")
    return k


def test_two_beziques_do_not_make_a_double_and_the_message_says_why() -> None:
    """RULES.md C24: two single beziques scored separately never score a double bezique."""
    k = classic()
    k.declare("Ann", "bezique QS JD")
    k.declare("Ann", "bezique QS JD")
    with pytest.raises(ValueError, match="scored one by one, and no new card"):
        k.declare("Ann", "double-bezique QS@table JD@table QS@table JD@table")


def test_the_last_trick_twice() -> None:
    k = classic()
    k.last_trick("Ann")
    with pytest.raises(ValueError, match="already took the last trick"):
        k.last_trick("Ann")
    k.last_trick("Bob")
    assert k.deal is not None and k.deal.last_trick == [0, 10]
    assert "in place of Ann" in k.deal.log[-1]


def test_unknown_meld_suggests_one_that_scores_here() -> None:
    k = classic()
    with pytest.raises(ValueError, match="did you mean 'four-aces'"):
        k.declare("Ann", "five-aces AS AH AD AC AS")
    k = Keeper(Rules.preset("haitian"), ["Ann", "Bob"])
    k.new_deal()
    k.declare("Ann", "marriage KS QS")
    with pytest.raises(ValueError, match=r"scores nothing in this game.*four-trump-aces"):
        k.declare("Ann", "five-trump-aces AS AS AS AS AS")


def test_the_rules_of_a_match_cannot_change_half_way(tmp_path: Path) -> None:
    """The penalty scheme (every rule) is fixed for the match: changed on the keeper, the next
    entry is refused; changed in the journal's header, resuming names the change."""
    k = classic()
    k.rules = k.rules.replace(penalty_scheme="russian")
    with pytest.raises(ValueError, match="cannot change once it has begun"):
        k.penalty("Ann", "revoke")
    path = tmp_path / "j.jsonl"
    k = Keeper(Rules.preset("classic"), ["Ann", "Bob"], path)
    k.new_deal(turn_up="9H")
    rows = path.read_text().splitlines()
    header = json.loads(rows[0])
    header["rules"] = "classic(penalty_scheme=russian)"
    path.write_text("\n".join([json.dumps(header), *rows[1:]]) + "\n")
    with pytest.raises(ValueError, match="a match keeps its rules"):
        Keeper.resume(path)


def test_keeper_prompt_shows_a_replaced_last_trick() -> None:
    console = quiet()
    app_ = KeeperApp(Keeper(Rules.preset("classic"), ["Ann", "Bob"]), console)
    for line in ("deal 9H", "Ann last", "Bob last"):
        app_.handle(line)
    assert "Bob took the last trick, in place of Ann" in output(console)


def test_haitian_keeper_from_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    entries = "deal\nAnn marriage KH QH\nBob four-kings KS KH KD XX\nAnn brisques 17\nBob brisques 15\nAnn last\nend\nquit\n"
    result = runner.invoke(
        app,
        ["keep", "--variant", "haitian", "--players", "Ann,Bob", "--handicap", "700,600"],
        input=entries,
    )
    assert result.exit_code == 0, result.output
    assert "-200" in result.output and "Brisque majority" in result.output


def test_keeper_tells_the_next_matchs_handicap() -> None:
    """HAITIAN.md H32: with cent points the loser starts each game of the next match on 100."""
    rules = Rules.preset("haitian", cent_points_handicap=100, match_games=1)
    console = quiet()
    app_ = KeeperApp(Keeper(rules, ["Ann", "Bob"], handicap=[990, 0]), console)
    for line in ("deal", "Ann marriage KS QS"):
        app_.handle(line)
    assert app_.keeper.winner == 0
    assert "every game starts on Ann 0, Bob 100" in " ".join(output(console).split())
