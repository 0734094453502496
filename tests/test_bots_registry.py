"""The registry of players: what ``bezique bots`` offers, spec strings and their errors, and the
arena's record of the players' specs."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bezique import Deal, Rules
from bezique.arena import ArenaResult, PlayerSpec, run_arena
from bezique.bots import Limit, make, names
from bezique.bots.levels import LEVELS
from bezique.bots.registry import entries, resolve
from bezique.cli import app


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_bots_lists_at_most_twenty_players_and_no_cheat() -> None:
    code, out = run("bots")
    assert code == 0
    # an entry's line starts with its name two spaces in; its settings are further in
    listed = [line.split()[0] for line in out.splitlines() if re.match(r"  \S", line)]
    assert sorted(listed) == sorted(names()) and len(listed) <= 20
    for base in ("beginner", "easy", "medium", "hard", "expert", "random", "simple"):
        assert base in listed
    for family in ("careless", "heuristic", "learned", "pimc", "ismcts", "pimc-c", "ismcts-c"):
        assert family in listed
    assert not {"oracle", "oracle-c", "oracle-hand"} & set(listed)
    # each family's settings, with its default and range
    assert "late_stock=off  [0..200|off]" in out and "bar=5/2.5" in out
    assert "exploration=0.7  [0..100]" in out


@pytest.mark.parametrize("name", names())
def test_every_listed_player_plays_a_deal_in_the_arena(name: str) -> None:
    """Each name ``bezique bots`` prints, with a small budget, plays a whole deal."""
    result = run_arena(f"{name}:nodes=300", "random", "classic", decks=1, seed=3)
    assert len(result.plays) == 2 and all(p.a_moves > 0 for p in result.plays)


def test_a_misspelt_opponent_gets_one_line_naming_the_closest() -> None:
    code, out = run("play", "--opponent", "expret")
    assert code == 2
    assert len(out.strip().splitlines()) == 1
    assert "did you mean 'expert'?" in out


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("expret", "did you mean 'expert'?"),
        ("pimc-c:bra=2/1.5", "did you mean 'bar'?"),
        ("pimc-c:bar=2", "bad bar"),
        ("pimc-c:bar=x/1", "points/z"),
        ("pimc-c:explore=1.5", "0..1"),
        ("pimc-c:prior=lerned", "heuristic|learned"),
        ("pimc-c:prior", "write key=value"),
        ("pimc-c:iterations=0", "positive whole number"),
        ("pimc:time=-1", "a number of seconds"),
        ("expert:bar=1/1", "is a level"),
        ("random:seed=3", "no setting 'seed'"),
        ("", "empty name"),
    ],
)
def test_a_bad_spec_is_one_clear_line(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=None) as e:
        resolve(spec)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_the_cheats_play_in_the_arena_only() -> None:
    for name in ("oracle", "oracle-c", "oracle-hand:shown=16"):
        with pytest.raises(ValueError, match="only the arena plays it"):
            make(name)
        assert PlayerSpec.parse(name).build(1) is not None
    code, out = run("play", "--opponent", "oracle")
    assert code == 2 and "only the arena" in out


def test_a_spec_reads_back_and_its_full_form_is_the_same_player() -> None:
    for e in entries():
        r = resolve(e.name)
        assert str(resolve(r.full())) == str(resolve(r.full()))  # the full form reads back
        assert resolve(r.full()).settings == r.settings and resolve(r.full()).limit == r.limit
    r = resolve("PIMC-C: Bar = 2/1.5 , late-stock=12, time=0.5")
    assert str(r) == "pimc-c:bar=2/1.5,late_stock=12,time=0.5"
    assert r.settings.bar == (2.0, 1.5) and r.limit == Limit(time=0.5)
    assert str(resolve("pimc-c:explore=0.1")) == "pimc-c"  # defaults are not written
    # a level's spec is the one table's, and its budget may be replaced
    expert = resolve("expert")
    assert expert.full() == resolve(LEVELS["expert"].spec).full()
    assert str(resolve("expert:iterations=9")) == "expert:iterations=9"
    assert str(expert) == "expert"


def test_the_arena_records_the_full_spec_of_both_players(tmp_path: Path) -> None:
    """The JSON names each player as given and in full; the full specs play the same deals."""
    result = run_arena("hard:iterations=40", "pimc-c:bar=2/1.5,iterations=40", decks=1, seed=2)
    data = result.to_json()
    assert data["a"] == "hard:iterations=40"
    assert data["a_spec"].startswith("pimc-c:prior=heuristic,playout=heuristic,")
    assert data["a_spec"].endswith(",fallback_nodes=6000,iterations=40")
    assert ",bar=2/1.5," in data["b_spec"]
    again = run_arena(data["a_spec"], data["b_spec"], decks=1, seed=2)
    assert [(p.scores, p.a_moves) for p in again.plays] == [
        (p.scores, p.a_moves) for p in result.plays
    ]
    path = tmp_path / "run.json"
    path.write_text(json.dumps(data))
    back = ArenaResult.from_json(json.loads(path.read_text()))
    assert str(back.a) == data["a"] and back.a.full() == data["a_spec"]


def test_a_level_plays_as_its_spec() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=5)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    for level in ("hard", "expert"):
        assert resolve(level).limit == resolve(LEVELS[level].spec).limit
        # the rollouts alone: the CPU cap would make the two runs depend on the machine's load
        limit = replace(resolve(level).limit or Limit(), cpu_budget=None)
        mine = make(level, 4).play(obs, limit)
        spec = make(LEVELS[level].spec, 4).play(obs, limit)
        assert (mine.action, mine.info) == (spec.action, spec.info)
