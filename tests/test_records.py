"""Game records: round trips through JSON and files, replays, and precise errors for bad input."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bezique import Deal, Match, Rules
from bezique.core.records import (
    FORMAT,
    DealRecord,
    GameRecord,
    RecordError,
    record_deal,
    record_match,
)

CLASSIC = Rules.preset("classic")

# rule sets that change the shape of a record: seats, sides, turn-up, scoring, extra melds
RULE_SETS = [
    *Rules.presets(),
    "classic(players=4,partnerships=true)",
    "classic(players=4)",
    "classic(players=3,packs=3,hand_size=9,deal_packets=(3,3,3))",
    "classic(turn_up=false)",
    "classic(trick_scoring=card-points,brisque_timing=immediate,carte_blanche=true)",
]


def play(deal: Deal, rng: random.Random, limit: int | None = None) -> Deal:
    """Random legal actions until the deal is over (or ``limit`` actions are played)."""
    n = 0
    while not deal.is_over and (limit is None or n < limit):
        deal.apply(rng.choice(deal.legal_actions()))
        n += 1
    return deal


def play_match(match: Match, rng: random.Random) -> Match:
    while True:
        play(match.deal, rng)
        if match.winner is not None:
            return match
        match.next_deal()


def finished_deal(seed: int = 7, rules: Rules = CLASSIC) -> Deal:
    return play(Deal.new(rules, seed=seed, dealer=seed % rules.players), random.Random(seed))


@pytest.fixture(scope="module")
def match_record() -> GameRecord:
    match = play_match(Match(Rules.preset("classic", target=1000), seed=3), random.Random(3))
    assert len(match.deals) >= 3  # the bad-input tests below tamper with deals[2]
    return record_match(match, players=["Ann", "Bob"], meta={"event": "test"})


def roundtrip(record: GameRecord) -> GameRecord:
    text = record.to_json()
    back = GameRecord.from_json(text)
    assert back == record
    assert back.to_json() == text  # writing is stable
    return back


# --- round trips ---------------------------------------------------------------------------------
@pytest.mark.parametrize("rules_text", RULE_SETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_complete_deal_round_trips(rules_text: str, seed: int) -> None:
    rules = Rules.from_string(rules_text)
    deal = finished_deal(seed, rules)
    record = record_deal(deal, meta={"date": "2026-11-29"})
    assert record.kind == "deal" and record.seed is None and record.winner is None
    assert record.deals[0].seed == seed and record.deals[0].cards is None
    assert record.deals[0].points == tuple(deal.points)
    assert record.scores == tuple(deal.points)
    assert record.players == tuple(f"seat {i}" for i in range(rules.players))
    back = roundtrip(record)
    assert back.rules == rules
    replayed = back.replay()
    assert isinstance(replayed, Deal)
    assert replayed.position() == deal.position()
    assert replayed.points == deal.points


def test_whole_match_round_trips(match_record: GameRecord) -> None:
    back = roundtrip(match_record)
    match = back.replay()
    assert isinstance(match, Match)
    original = play_match(Match(Rules.preset("classic"), seed=3), random.Random(3))
    assert match.scores == original.scores == list(back.scores)
    assert match.winner == original.winner == back.winner is not None
    assert [d.position() for d in match.deals] == [d.position() for d in original.deals]
    assert back.seed == 3 and back.players == ("Ann", "Bob") and back.meta == {"event": "test"}
    assert [d.seed for d in back.deals] == original.deal_seeds
    assert [d.dealer for d in back.deals] == [d.dealer for d in original.deals]
    assert all(d.points is not None for d in back.deals)


@pytest.mark.parametrize("rules_text", RULE_SETS)
def test_short_matches_round_trip_with_every_rule_set(rules_text: str) -> None:
    rules = Rules.from_string(rules_text).replace(target=300)
    match = play_match(Match(rules, seed=11), random.Random(11))
    back = roundtrip(record_match(match))
    replayed = back.replay()
    assert isinstance(replayed, Match)
    assert replayed.scores == match.scores and replayed.winner == match.winner


def test_stacked_deal_round_trips() -> None:
    source = finished_deal(5)
    assert source.initial is not None
    hands, turn_up, stock = source.initial
    stacked = Deal.from_cards(CLASSIC, hands=hands, turn_up=turn_up, stock=stock, dealer=1)
    play(stacked, random.Random(99))
    record = record_deal(stacked, players=["North", "South"])
    d = record.deals[0]
    assert d.seed is None and d.dealer == 1
    assert d.cards == {
        "hands": [list(h) for h in hands],
        "turn_up": turn_up,
        "stock": list(stock),
    }
    back = roundtrip(record)
    assert back.replay() == stacked
    assert '"turn_up": "' in record.to_json()


def test_deal_shuffled_without_a_seed_is_recorded_by_its_cards() -> None:
    deal = play(Deal.new(CLASSIC, seed=None, dealer=0), random.Random(4), limit=30)
    record = record_deal(deal)
    assert record.deals[0].seed is None and record.deals[0].cards is not None
    assert roundtrip(record).replay() == deal


def test_unfinished_deal_is_a_valid_record_and_can_be_resumed() -> None:
    rng = random.Random(8)
    deal = play(Deal.new(CLASSIC, seed=8, dealer=1), rng, limit=25)
    record = record_deal(deal)
    assert record.deals[0].points is None and len(record.deals[0].actions) == 25
    resumed = roundtrip(record).replay()
    assert isinstance(resumed, Deal)
    assert resumed == deal
    play(resumed, random.Random(1))
    play(deal, random.Random(1))
    assert resumed.is_over and resumed.points == deal.points


def test_unfinished_match_mid_deal_and_between_deals() -> None:
    rng = random.Random(21)
    match = Match(CLASSIC, seed=21)
    play(match.deal, rng)
    between = record_match(match)  # first deal over, the next not started
    assert between.winner is None and between.deals[0].points is not None
    resumed = roundtrip(between).replay()
    assert isinstance(resumed, Match)
    assert resumed.scores == match.scores
    resumed.next_deal()
    match.next_deal()
    assert resumed.deal == match.deal
    play(match.deal, rng, limit=10)
    mid = record_match(match)
    assert len(mid.deals) == 2 and mid.deals[1].points is None
    replayed = roundtrip(mid).replay()
    assert isinstance(replayed, Match)
    assert replayed.deal == match.deal and replayed.scores == match.scores


def test_states_step_through_every_position(match_record: GameRecord) -> None:
    steps = list(match_record.states())
    assert len(steps) == sum(len(d.actions) + 1 for d in match_record.deals)
    positions = {}
    for i, ply, action, deal in steps:
        positions[i, ply] = deal.position()
        if ply == 0:
            assert action is None and not deal.history
        else:
            assert action == match_record.deals[i].actions[ply - 1] == deal.history[-1]
        assert len(deal.history) == ply
    final = match_record.replay()
    assert isinstance(final, Match)
    last_i, last_ply, _, last_deal = steps[-1]
    assert last_deal == final.deal and last_ply == len(match_record.deals[last_i].actions)
    # the deals yielded are clones: changing one leaves the others alone
    first = steps[0][3]
    first.apply(first.legal_actions()[0])
    assert steps[0][3].history and positions[0, 0] != first.position()
    assert steps[1][3].position() == positions[0, 1]


def test_states_of_a_single_deal() -> None:
    deal = finished_deal(12)
    states = list(record_deal(deal).states())
    assert [(i, ply) for i, ply, _, _ in states] == [(0, k) for k in range(len(deal.history) + 1)]
    assert states[-1][3] == deal
    assert states[0][3] == Deal.new(CLASSIC, seed=12, dealer=0)


def test_write_and_read(tmp_path: Path, match_record: GameRecord) -> None:
    path = tmp_path / "game.json"
    match_record.write(path)
    assert GameRecord.read(path) == match_record
    assert GameRecord.read(str(path)) == match_record
    assert path.read_text(encoding="utf-8") == match_record.to_json()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left


def test_json_has_the_documented_fields(match_record: GameRecord) -> None:
    data = json.loads(match_record.to_json())
    assert list(data) == [
        "format",
        "rules",
        "players",
        "kind",
        "seed",
        "deals",
        "scores",
        "winner",
        "meta",
    ]
    assert data["format"] == FORMAT == "bezique-record/1"
    assert data["rules"] == "classic"
    assert list(data["deals"][0]) == ["dealer", "seed", "cards", "actions", "points"]
    assert data == match_record.to_dict()


def test_loose_actions_are_read_into_standard_notation() -> None:
    deal = finished_deal(3)
    record = record_deal(deal)
    data = record.to_dict()
    data["deals"][0]["actions"] = [_loosen(a) for a in data["deals"][0]["actions"]]
    assert data["deals"][0]["actions"] != list(record.deals[0].actions)
    assert GameRecord.from_json(json.dumps(data)) == record


def _loosen(action: str) -> str:
    words = action.split()
    words[0] = words[0].upper()
    return " ".join(w.replace("T", "10").lower() if len(w) == 2 else w for w in words)


def test_results_left_out_are_filled_in(match_record: GameRecord) -> None:
    data = match_record.to_dict()
    for key in ("scores", "winner", "meta"):
        del data[key]
    for d in data["deals"]:
        del d["points"], d["seed"], d["dealer"], d["cards"]
    back = GameRecord.from_dict(data)
    assert back.scores == match_record.scores and back.winner == match_record.winner
    assert back.deals == match_record.deals
    assert back.meta == {}


def test_validate_checks_a_record_built_in_python() -> None:
    record = record_deal(finished_deal(2))
    assert record.validate() == record
    wrong = GameRecord(record.rules, record.players, "deal", None, record.deals, (0, 0), None, {})
    with pytest.raises(RecordError, match=r"^scores: the record says \[0, 0\]"):
        wrong.validate()


def test_record_deal_needs_to_know_how_the_deal_was_dealt() -> None:
    deal = finished_deal(2)
    with pytest.raises(ValueError, match="rebuilt from a position"):
        record_deal(Deal.from_position(deal.position()))
    with pytest.raises(ValueError, match="3 player names for 2 seats"):
        record_deal(deal, players=["a", "b", "c"])


def test_record_match_needs_a_seed() -> None:
    with pytest.raises(ValueError, match="without a seed"):
        record_match(Match(CLASSIC))


def test_replay_of_a_record_built_with_an_illegal_action() -> None:
    deal = Deal.new(CLASSIC, seed=1, dealer=0)
    held = set(deal.hand(1))
    missing = next(c for c in ("AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S") if c not in held)
    bad = GameRecord(
        CLASSIC,
        ("a", "b"),
        "deal",
        None,
        (DealRecord(dealer=0, seed=1, actions=(f"play {missing}",)),),
        (0, 0),
        None,
    )
    with pytest.raises(RecordError, match=rf"^deals\[0\]\.actions\[0\]: 'play {missing}' is"):
        bad.replay()
    with pytest.raises(RecordError, match=r"^deals\[0\]\.actions\[0\]"):
        list(bad.states())


# --- bad input -----------------------------------------------------------------------------------
Edit = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Edit:
    """An edit that sets a field given as a dotted path (``deals.0.points``)."""

    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return edit


def _delete(path: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        del node[last]

    return edit


def _not_held(data: dict[str, Any]) -> None:
    deal = Deal.new(CLASSIC, seed=data["deals"][0]["seed"], dealer=data["deals"][0]["dealer"])
    seat = deal.to_move
    assert seat is not None
    held = set(deal.hand(seat))
    card = next(c for c in ("AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S", "AH") if c not in held)
    data["deals"][0]["actions"][0] = f"play {card}"


def _one_more_action(data: dict[str, Any]) -> None:
    data["deals"][0]["actions"].append("pass")


def _truncate_actions(data: dict[str, Any]) -> None:
    del data["deals"][0]["actions"][-1]


def _stacked(edit: Edit) -> Edit:
    """Turn the seeded deal into a stacked one (cards instead of seed), then apply ``edit``."""

    def both(data: dict[str, Any]) -> None:
        d = data["deals"][0]
        deal = Deal.new(CLASSIC, seed=d["seed"], dealer=d["dealer"])
        assert deal.initial is not None
        hands, turn_up, stock = deal.initial
        d["seed"] = None
        d["cards"] = {"hands": [list(h) for h in hands], "turn_up": turn_up, "stock": list(stock)}
        edit(data)

    return both


DEAL_CASES: list[tuple[str, Edit, str, str]] = [
    # (id, edit, location, words in the message)
    ("format missing", _delete("format"), "format", "not a bezique record"),
    ("format version", _set("format", "bezique-record/2"), "format", "different version"),
    ("format other", _set("format", "pgn"), "format", "expected 'bezique-record/1'"),
    ("unknown key", _set("colour", "red"), "colour", "unknown key"),
    ("deals missing", _delete("deals"), "deals", "missing"),
    ("rules missing", _delete("rules"), "rules", "missing"),
    ("kind missing", _delete("kind"), "kind", "missing"),
    ("rules type", _set("rules", 7), "rules", "must be text"),
    ("rules preset", _set("rules", "klassik"), "rules", "unknown preset"),
    ("rules option", _set("rules", "classic(colour=red)"), "rules", "colour"),
    ("rules value", _set("rules", "classic(target=lots)"), "rules", "target"),
    ("rules malformed", _set("rules", "classic(target=5"), "rules", "bad rules"),
    ("rules packets", _set("rules", "classic(deal_packets=3)"), "rules", "bad rules"),
    ("players type", _set("players", "Ann"), "players", "must be a list"),
    ("players count", _set("players", ["a", "b", "c"]), "players", "3 names for 2 seats"),
    ("player name", _set("players", ["a", 2]), "players[1]", "must be text"),
    ("kind", _set("kind", "tournament"), "kind", "'deal' or 'match'"),
    ("kind type", _set("kind", None), "kind", "must be text"),
    ("seed for a deal", _set("seed", 4), "seed", "must be null"),
    ("seed type", _set("seed", "4"), "seed", "whole number"),
    ("deals type", _set("deals", {}), "deals", "must be a list"),
    ("no deals", _set("deals", []), "deals", "at least one deal"),
    ("two deals", lambda d: d["deals"].append(d["deals"][0]), "deals", "exactly one deal"),
    ("deal type", _set("deals.0", 5), "deals[0]", "must be a JSON object"),
    ("deal key", _set("deals.0.hands", []), "deals[0].hands", "unknown key"),
    ("dealer missing", _delete("deals.0.dealer"), "deals[0].dealer", "missing"),
    ("dealer range", _set("deals.0.dealer", 2), "deals[0].dealer", "from 0 to 1"),
    ("dealer bool", _set("deals.0.dealer", True), "deals[0].dealer", "whole number: got true"),
    ("dealer float", _set("deals.0.dealer", 1.0), "deals[0].dealer", "whole number"),
    ("deal seed type", _set("deals.0.seed", "7"), "deals[0].seed", "whole number"),
    ("no seed or cards", _set("deals.0.seed", None), "deals[0]", "seed or the cards"),
    ("actions type", _set("deals.0.actions", "pass"), "deals[0].actions", "must be a list"),
    ("actions missing", _delete("deals.0.actions"), "deals[0].actions", "missing"),
    ("action type", _set("deals.0.actions.3", 42), "deals[0].actions[3]", "must be text"),
    ("action text", _set("deals.0.actions.3", "plya QS"), "deals[0].actions[3]", "not an action"),
    ("action card", _set("deals.0.actions.3", "play QX"), "deals[0].actions[3]", "not a card"),
    ("not held", _not_held, "deals[0].actions[0]", "is illegal: seat 0 does not hold"),
    ("wrong verb", _set("deals.0.actions.0", "pass"), "deals[0].actions[0]", "is illegal"),
    ("after the end", _one_more_action, "deals[0].actions[", "the deal is over"),
    ("points tampered", _set("deals.0.points.0", 5), "deals[0].points", "the record says [5,"),
    ("points length", _set("deals.0.points", [1]), "deals[0].points", "needs 2 numbers"),
    ("points type", _set("deals.0.points", "210"), "deals[0].points", "must be a list"),
    ("points item", _set("deals.0.points.1", "x"), "deals[0].points[1]", "whole number"),
    ("points null", _set("deals.0.points", None), "deals[0].points", "the record says null"),
    ("points early", _truncate_actions, "deals[0].points", "the replay gives null"),
    ("scores tampered", _set("scores.1", 999), "scores", "the record says"),
    ("scores length", _set("scores", [1, 2, 3]), "scores", "needs 2 numbers"),
    ("winner of a deal", _set("winner", 0), "winner", "no match winner"),
    ("winner type", _set("winner", "Ann"), "winner", "whole number"),
    ("meta type", _set("meta", ["x"]), "meta", "must be a JSON object"),
    ("meta value", _set("meta", {"round": 3}), "meta.round", "must be text"),
    ("cards type", _set("deals.0.cards", "AS KS"), "deals[0].cards", "must be a JSON object"),
    (
        "cards bad code",
        _stacked(_set("deals.0.cards.hands.0.2", "ZZ")),
        "deals[0].cards.hands[0][2]",
        "not a card: 'ZZ'",
    ),
    (
        "cards key",
        _stacked(_set("deals.0.cards.discards", [])),
        "deals[0].cards.discards",
        "unknown key",
    ),
    (
        "cards missing key",
        _stacked(_delete("deals.0.cards.stock")),
        "deals[0].cards.stock",
        "missing",
    ),
    (
        "cards hands",
        _stacked(lambda d: d["deals"][0]["cards"]["hands"].pop()),
        "deals[0].cards.hands",
        "1 hands for 2 seats",
    ),
    (
        "cards not a pack",
        _stacked(_set("deals.0.cards.stock.0", "AS")),
        "deals[0].cards",
        "not a deal by these rules",
    ),
    (
        "cards turn-up",
        _stacked(_set("deals.0.cards.turn_up", 7)),
        "deals[0].cards.turn_up",
        "must be text",
    ),
]


def _check_error(text: str, location: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(text)
    message = str(info.value)
    assert message.startswith(location), message
    if not location.endswith("["):
        assert message.startswith(location + ": "), message
    assert words in message, message


@pytest.mark.parametrize(
    ("edit", "location", "words"),
    [c[1:] for c in DEAL_CASES],
    ids=[c[0] for c in DEAL_CASES],
)
def test_bad_deal_records(edit: Edit, location: str, words: str) -> None:
    data = record_deal(finished_deal(7), meta={"event": "club night"}).to_dict()
    GameRecord.from_dict(json.loads(json.dumps(data)))  # valid before the edit
    edit(data)
    _check_error(json.dumps(data), location, words)


def test_cards_given_with_a_seed_must_be_the_cards_it_deals() -> None:
    data = record_deal(finished_deal(7)).to_dict()
    _stacked(lambda d: None)(data)
    data["deals"][0]["seed"] = 7
    GameRecord.from_dict(data)  # the same cards: accepted
    hands = data["deals"][0]["cards"]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    _check_error(json.dumps(data), "deals[0].cards", "differ from the cards that seed 7 deals")


def _deal_after_the_end(data: dict[str, Any]) -> None:
    data["deals"].append(dict(data["deals"][-1]))


def _unfinished_then_more(data: dict[str, Any]) -> None:
    data["deals"][0]["actions"] = data["deals"][0]["actions"][:5]


def _later_deal_illegal(data: dict[str, Any]) -> None:
    data["deals"][2]["actions"][5] = "exchange 7S"


MATCH_CASES: list[tuple[str, Edit, str, str]] = [
    ("match seed missing", _set("seed", None), "seed", "needs the match seed"),
    ("match seed wrong", _set("seed", 4), "deals[0].seed", "the match seed 4 deals deal 0"),
    ("deal seed", _set("deals.1.seed", 12345), "deals[1].seed", "but the record says 12345"),
    ("deal dealer", lambda d: _flip_dealer(d, 1), "deals[1].dealer", "deals deal 1"),
    ("winner tampered", lambda d: d.update(winner=1 - d["winner"]), "winner", "the record says"),
    ("winner null", _set("winner", None), "winner", "the record says null"),
    ("winner range", _set("winner", 2), "winner", "from 0 to 1"),
    ("scores", _set("scores.0", 0), "scores", "the record says [0,"),
    ("deal after the end", _deal_after_the_end, "deals[", "the match was won by side"),
    ("deal after unfinished", _unfinished_then_more, "deals[1]", "deals[0] is not finished"),
    ("later illegal", _later_deal_illegal, "deals[2].actions[5]", "'exchange 7S' is illegal"),
    ("later points", _set("deals.2.points.1", 1), "deals[2].points", "the record says"),
]


def _flip_dealer(data: dict[str, Any], i: int) -> None:
    data["deals"][i]["dealer"] = 1 - data["deals"][i]["dealer"]


@pytest.mark.parametrize(
    ("edit", "location", "words"),
    [c[1:] for c in MATCH_CASES],
    ids=[c[0] for c in MATCH_CASES],
)
def test_bad_match_records(match_record: GameRecord, edit: Edit, location: str, words: str) -> None:
    data = match_record.to_dict()
    edit(data)
    _check_error(json.dumps(data), location, words)


@pytest.mark.parametrize(
    ("text", "location"),
    [
        ("", "line 1, column 1"),
        ('{"format": "bezique-record/1",\n "rules": "classic",\n "kind"', "line 3, column 8"),
        ("[1, 2]", "record"),
        ("null", "record"),
        ('"bezique"', "record"),
        ('{"format": "bezique-record/1", "kind": "deal", "kind": "match"}', "record"),
    ],
    ids=["empty", "truncated", "list", "null", "string", "duplicate key"],
)
def test_bad_json(text: str, location: str) -> None:
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(text)
    assert str(info.value).startswith(location + ": "), str(info.value)


def test_truncated_record_names_line_and_column(match_record: GameRecord) -> None:
    text = match_record.to_json()
    cut = text[: len(text) // 2]
    line = cut.count("\n") + 1
    with pytest.raises(RecordError, match=rf"^line {line}, column \d+: not valid JSON"):
        GameRecord.from_json(cut)


def test_duplicate_key_is_named() -> None:
    text = '{"format": "bezique-record/1", "kind": "deal", "kind": "match"}'
    with pytest.raises(RecordError, match="key 'kind' appears twice"):
        GameRecord.from_json(text)


def test_record_error_is_a_value_error() -> None:
    assert issubclass(RecordError, ValueError)


def test_read_errors_start_with_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nothing.json"
    with pytest.raises(RecordError, match=r"no such file") as info:
        GameRecord.read(missing)
    assert str(info.value).startswith(f"{missing}: ")
    with pytest.raises(RecordError, match=r"is a directory") as info:
        GameRecord.read(tmp_path)
    assert str(info.value).startswith(f"{tmp_path}: ")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match="not UTF-8") as info:
        GameRecord.read(binary)
    assert str(info.value).startswith(f"{binary}: ")
    bad = tmp_path / "bad.json"
    data = record_deal(finished_deal(7)).to_dict()
    data["deals"][0]["points"] = [1, 2]
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError) as info:
        GameRecord.read(bad)
    assert str(info.value).startswith(f"{bad}: deals[0].points: the record says [1, 2]")
    truncated = tmp_path / "truncated.json"
    truncated.write_text('{\n  "format": ', encoding="utf-8")
    with pytest.raises(RecordError, match=rf"^{truncated}: line 2, column 13: "):
        GameRecord.read(truncated)
