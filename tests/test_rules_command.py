"""``bezique rules`` tells the truth about the old Russian game, and ``--options`` shows first
what a preset changes.  The old Russian facts are RULES.md 2.8 and
decision 11: 8 packs of A K Q J 10 (20 cards each), 12 nines (3 a suit) and 2 wild cards, 174
cards; the hand ends when the stock and the turn-up are drawn, with no second stage; a nine of
trumps, not a seven, takes the turn-up."""

from __future__ import annotations

from typer.testing import CliRunner

from bezique import Rules
from bezique.cli import app

WIDE = {"COLUMNS": "200"}


def run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), env=WIDE)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # sentences whole, wherever lines were wrapped


def test_old_russian_cards_are_told_as_they_are() -> None:
    out = run("rules", "old-russian")
    assert "Eight packs of 20 cards (A 10 K Q J in each suit)" in out
    assert "12 nines (3 a suit) and two wild cards (XX) added: 174 cards" in out
    assert "9 8 7" not in out and "32 cards" not in out
    assert "Cards rank A, 10, K, Q, J, 9:" in out
    three = run("rules", "old-russian", "--option", "players=3")
    assert "Ten packs of 20 cards" in three and "214 cards" in three


def test_old_russian_has_no_second_stage_and_no_seven() -> None:
    out = run("rules", "old-russian")
    assert "Stage 2" not in out and "last 18 tricks" not in out
    assert "The hand ends when the stock and the turn-up are gone" in out
    assert "seven of trumps" not in out.lower()
    assert "exchange a nine of trumps for the turn-up; it scores nothing" in out
    assert "Only a player whose card beat a card played before it" in out
    assert "scores double the one before" in out


def test_the_classic_text_keeps_its_second_stage_and_seven() -> None:
    out = run("rules", "classic")
    assert "Two packs of 32 cards (A 10 K Q J 9 8 7 in each suit) shuffled together: 64" in out
    assert "the last eight tricks are played out" in out
    assert "exchange it for the turn-up and score 10" in out


def test_options_show_what_the_preset_changes_first_and_the_rest_on_request() -> None:
    short = run("rules", "old-russian", "--options")
    every = run("rules", "old-russian", "--options", "--all")
    assert short.startswith("Options of old-russian What old-russian changes from classic:")
    assert "packs = 8 (classic: 2)" in short and "wild_cards = 2 (classic: 0)" in short
    assert "(0 to 8)" in short  # a number's range beside its meaning
    untouched = [n for n in Rules.option_names() if n not in short.split(" ")]
    assert "target" in untouched and "partnerships" in untouched
    assert f"{len(untouched)} other options are as in classic: add --all" in short
    for name in Rules.option_names():
        assert f"{name} = " in every
    assert len(short) < 0.6 * len(every)


def test_options_of_a_base_game_and_of_changes_given() -> None:
    out = run("rules", "classic", "--options", "--option", "target=1500")
    assert "Changed from classic: target = 1500 (changed) (classic: 1000)" in out
    others = len(Rules.option_names()) - 1
    assert (
        f"{others} other options are as in classic" in out
        and "target = " not in out.split("other options")[1]
    )
    three = run("rules", "three", "--options")
    assert "What three changes from classic:" in three and "players = 3 (classic: 2)" in three
