"""Reading rules from text that anyone may send: bounded work, bounded memory, short errors.

A rules string is read in one pass whatever its nesting, refused past a depth and a length
before anything is built from it, and every whole-number option is checked against its range
before a value is made from it (a hand of a hundred million cards is refused, not dealt in
threes first).  No error quotes the text it was given at length."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from bezique import Rules
from bezique.core import rules as rules_module
from bezique.core.match import Match
from bezique.core.records import GameRecord, RecordError, record_match


def nested(depth: int, inner: str = "3") -> str:
    return "classic(deal_packets=" + "(" * depth + inner + ")" * depth + ")"


@pytest.fixture
def scanned(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The characters the parser's splitting looks at, summed over its calls."""
    seen = [0]
    split = rules_module._split_args

    def counted(body: str) -> list[str]:
        seen[0] += len(body)
        return split(body)

    monkeypatch.setattr(rules_module, "_split_args", counted)
    rules_module._PARSED.clear()
    yield seen
    rules_module._PARSED.clear()


def peak_bytes(fn: Callable[[], Any]) -> tuple[int, BaseException | None]:
    """The most memory ``fn`` held at once (tracemalloc), and what it raised."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    raised: BaseException | None = None
    try:
        fn()
    except BaseException as e:  # the test looks at what was raised
        raised = e
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, raised


@pytest.mark.parametrize("depth", [17, 400, 1000])
def test_deep_nesting_is_one_short_error_after_one_pass(depth: int, scanned: list[int]) -> None:
    """``classic(deal_packets=((((...3...))))`` at depth 400 cost 1.2 s (each level scanned the
    text inside it again); at depth 1,000 it raised RecursionError.  Now it is refused after one
    pass over the text, with a one-line error that does not quote it."""
    text = nested(depth)
    peak, raised = peak_bytes(lambda: Rules.from_string(text))
    assert isinstance(raised, ValueError), raised
    message = str(raised)
    assert "\n" not in message and len(message) < 200 and "((((" not in message
    assert "nested" in message
    assert scanned[0] <= len(text)  # the splitting never saw more than the text once
    assert peak < 256 * 1024


def test_the_nesting_real_rules_use_still_reads() -> None:
    """The one level of nesting the rules need (``deal_packets``) and a little more."""
    assert Rules.from_string("classic(deal_packets=(3,2,3))").deal_packets == (3, 2, 3)
    assert Rules.from_string("classic(hand_size=9,deal_packets=(4,5))").deal_packets == (4, 5)
    with pytest.raises(ValueError, match="deal_packets") as e:
        Rules.from_string(nested(rules_module.MAX_DEPTH - 1))  # deep enough, but not numbers
    assert "nested" not in str(e.value)


def test_splitting_looks_at_each_character_a_bounded_number_of_times(scanned: list[int]) -> None:
    """Within the depth limit the work is linear in the length: every level of a text nested
    as deep as allowed costs one more look at most."""
    text = nested(rules_module.MAX_DEPTH - 1, ",".join("3" * 50))
    with pytest.raises(ValueError):
        Rules.from_string(text)
    assert scanned[0] <= rules_module.MAX_DEPTH * len(text)


def test_a_rules_text_past_the_cap_is_refused_unread(scanned: list[int]) -> None:
    text = "classic(" + ",".join(["target=1000"] * 2000) + ")"
    assert len(text) > rules_module.MAX_RULES_TEXT
    with pytest.raises(ValueError) as e:
        Rules.from_string(text)
    message = str(e.value)
    assert f"at most {rules_module.MAX_RULES_TEXT} characters" in message and len(message) < 200
    assert scanned[0] == 0
    assert len(rules_module._PARSED) == 0  # nothing kept for it either


def test_errors_never_quote_long_input() -> None:
    long_word = "x" * 3000
    for text in (
        f"classic(meld_reuse={long_word})",
        f"classic({long_word}=1)",
        f"classic(target={long_word})",
        f"{long_word}",
        f"classic(target=1,{long_word})",
        f"classic(target=1{long_word}",
    ):
        with pytest.raises(ValueError) as e:
            Rules.from_string(text)
        message = str(e.value)
        assert "\n" not in message and len(message) < 400 and "x" * 60 not in message, text[:40]


def whole_number_options() -> list[str]:
    return [n for n in Rules.option_names() if Rules.option_range(n) is not None]


@pytest.mark.parametrize("value", [10**8, 10**12, -(10**12)])
def test_every_whole_number_option_out_of_range_is_refused_in_constant_memory(value: int) -> None:
    """``hand_size=100000000`` built the deal packets (three cards each: 458 MiB) before its
    range was checked.  Every whole-number option at 10^12 (and -10^12) is now refused before
    anything is built from it, as a string and as a value alike."""
    base = Rules.preset("classic")
    for name in whole_number_options():
        low, high = Rules.option_range(name) or (0, 0)
        given = {name: value}
        for make in (
            partial(base.replace, **given),
            partial(Rules.preset, "classic", **given),
            partial(Rules.from_string, f"classic({name}={value})"),
        ):
            peak, raised = peak_bytes(make)
            assert isinstance(raised, ValueError), (name, raised)
            assert str(raised) == f"option {name} must be {low} to {high}: got {value}"
            assert peak < 64 * 1024, (name, peak)


def test_a_hand_size_in_range_is_still_dealt_in_threes() -> None:
    assert Rules.preset("classic").replace(hand_size=9, packs=2).deal_packets == (3, 3, 3)


# --- records: the rules inside them, and the rest of what they may hold ----------------------------
def a_record() -> dict[str, Any]:
    match = Match(Rules.preset("classic", target=200), seed=3)
    while match.winner is None:
        if match.deal.is_over:
            match.next_deal()
        else:
            match.deal.apply(match.deal.legal_actions()[0])
    data: dict[str, Any] = json.loads(record_match(match).to_json())
    return data


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(rules=nested(1000)),
        lambda d: d.update(rules=nested(400)),
        lambda d: d.update(rules="classic(" + "target=1000," * 40_000 + ")"),
        lambda d: d.update(format="x" * 300_000),
        lambda d: d["deals"][0]["actions"].insert(0, "play " + "Q" * 300_000),
        lambda d: d.update(meta={"k" * 300_000: 5}),
        lambda d: d.update(players=["y" * 300_000, 7]),
    ],
)
def test_a_record_error_is_one_short_line(change: Callable[[dict[str, Any]], None]) -> None:
    """A record whose rules nest 400 deep cost 12-23 s and ~450 MiB, and its error echoed the
    whole input.  Every error now is one line that quotes the record only briefly."""
    data = a_record()
    change(data)
    text = json.dumps(data)
    peak, raised = peak_bytes(lambda: GameRecord.from_json(text))
    assert isinstance(raised, RecordError), raised
    message = str(raised)
    assert "\n" not in message and len(message) < 500, message[:100]
    assert peak < 8 * len(text) + (1 << 20)


def test_json_nested_past_the_parser_is_a_record_error() -> None:
    for text in ("[" * 100_000, '{"a":' * 100_000):
        with pytest.raises(RecordError, match="nested too deeply"):
            GameRecord.from_json(text)
