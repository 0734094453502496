"""`bezique play` and `bezique rules --options` for every preset: a whole scripted deal each,
with computer players in the other seats (the partner too in the partnership game).

Rule tests cite the rule IDs of RULES.md section 5.
"""

from __future__ import annotations

import importlib.util
import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from bezique import Deal, Rules
from bezique.bots import make
from bezique.cli import app
from bezique.core.match import settle
from bezique.tui.game import TerminalGame
from bezique.tui.render import action_text, log_lines, prompt_text, to_text
from bezique.tui.rules_text import _value

runner = CliRunner()


class Script:
    """Always the first choice; stops (end of input) when the first deal is over."""

    def __init__(self) -> None:
        self.turns = 0

    def __call__(self, prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            raise EOFError
        if prompt.startswith("Really"):
            return "y"
        self.turns += 1
        return "1"


def one_deal(rules: Rules, seed: int = 3) -> tuple[TerminalGame, str, Script]:
    buf = io.StringIO()
    script = Script()
    game = TerminalGame(
        rules,
        opponent="random",
        seed=seed,
        console=Console(file=buf, width=110, color_system=None),
        ask=script,
        clear=False,
    )
    assert game.run() == 0
    return game, buf.getvalue(), script


@pytest.mark.parametrize("preset", Rules.presets())
def test_a_whole_deal_of_every_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    game, out, script = one_deal(rules)
    deal = game.match.deals[0]
    assert deal.is_over and len(game.match.deals) == 1
    assert script.turns > 0
    assert "Deal 1 is over." in out and "End of the deal" in out
    # every seat is on the screen: the human, the computer players and (four) the partner
    for name in game.names:
        assert name in out, name
    if rules.partnerships:
        assert game.names == ["You", "Computer 1", "Partner", "Computer 2"]
        assert "You & Partner" in out
    assert "Traceback" not in out
    if rules.deal_scoring == "per-deal":
        # R07-R10, X03: the settlement comes from settle(), sum by sum
        s = settle(deal)
        assert "one deal is a game" in out and "(game " not in out
        assert re.search(r"\bGame\b", out)
        if s.winner is not None:
            assert f"= {s.payout[s.winner]}." in out
            assert ("with a rubicon" if s.rubicon else "the game:") in out
        else:
            assert "A tie" in out
    else:
        assert f"(game {rules.target})" in out


def test_the_rubicon_summary_counts_brisques_apart() -> None:
    # R08: the brisques of a Rubicon deal only settle it; they are shown apart
    game, out, _ = one_deal(Rules.preset("rubicon"))
    result = game.match.deals[0].result
    assert result is not None
    assert "Brisques (to settle)" in out
    assert sum(r.brisques for r in result) == 320  # 32 brisques in four packs


def test_play_command_with_four_seats_and_a_computer_partner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the end of input quits, saving the game here
    for variant, names in (("four", ("Computer 1", "Partner", "Computer 2")),):
        result = runner.invoke(
            app,
            ["play", "--variant", variant, "--seed", "2", "--opponent", "random"],
            input="1\n" * 30,
        )
        assert result.exit_code == 0, result.output
        assert "Traceback" not in result.output
        for name in names:
            assert name in result.output
        assert list(tmp_path.glob("bezique-play-*.json"))  # saved on quitting, to resume


def test_the_partner_action_and_a_declaration_handed_over() -> None:
    # D32 option winner-or-partner: the winner may hand the declaration to the partner
    rules = Rules.preset("four", partner_declaring="winner-or-partner")
    bots = [make("random", seed=s) for s in range(4)]
    for seed in range(40):
        deal = Deal.new(rules, seed=seed)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            if (
                deal.phase == "declare"
                and seat == 2
                and "partner" in [str(a) for a in deal.legal_actions()]
            ):
                assert "let your partner declare" in to_text(
                    prompt_text(deal.observation(2), ["You", "A", "Pat", "B"])
                )
                text = to_text(action_text(deal.observation(2), "partner"))
                assert "let your partner declare instead" in text
                deal.apply("partner")
                if deal.phase != "declare":
                    continue  # the partner had nothing to declare: both sides drew
                obs = deal.observation(0)
                assert obs.my_turn
                prompt = to_text(prompt_text(obs, ["You", "A", "Pat", "B"]))
                assert "Pat won the trick and let you declare" in prompt
                return
            deal.apply(bots[seat].choose(deal.observation(seat)))
    pytest.fail("no deal offered the partner action")


def test_carte_blanche_is_shown_in_words() -> None:
    # R04 a hand without K, Q or J scores carte blanche, shown automatically
    rules = Rules.preset("rubicon")
    for seed in range(400):
        deal = Deal.new(rules, seed=seed)
        if any(what == "carte blanche" for _, _, what, _ in deal.events):
            lines = "".join(to_text(line) for line in log_lines(deal.observation(0)))
            assert "showed a carte blanche (no king, queen or jack)" in lines
            assert "+50" in lines
            return
    pytest.fail("no carte blanche in 400 Rubicon deals")


@pytest.mark.parametrize("preset", Rules.presets())
def test_rules_options_lists_every_option_with_its_value(preset: str) -> None:
    result = runner.invoke(app, ["rules", preset, "--options", "--all"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rules = Rules.preset(preset)
    docs = Rules.option_docs()
    for name in Rules.option_names():
        line = f"{name} = {_value(getattr(rules, name))}"
        assert line in result.output, line
        assert docs[name].split("[")[0].strip()[:40] in result.output, name


def test_the_variants_document_has_every_preset_and_its_true_options() -> None:
    # docs/variants.md: a section per preset whose option table is what the preset says
    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location(
        "make_variant_tables", root / "scripts" / "make_variant_tables.py"
    )
    assert spec is not None and spec.loader is not None
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)
    text = (root / "docs" / "variants.md").read_text(encoding="utf-8")
    for preset in Rules.presets():
        assert f"## {preset}" in text, preset
        assert f"<!-- options: {preset} -->" in text, preset
    assert tables.render(text) == text, "run python scripts/make_variant_tables.py"
    # and the tables say what the rules say, e.g. the Chinese game bonus (X03)
    chinese = text.split("<!-- options: chinese -->")[1].split("<!-- end options -->")[0]
    assert "| `game_bonus` | `1000` |" in chinese and "| `rubicon_threshold` | `3000` |" in chinese
