"""The players by name: the levels, the baselines and the search families.

:func:`make` builds a player from a spec string (:mod:`.spec`): a level (``expert``), a
baseline (``heuristic``) or a family with settings (``pimc-c:prior=learned,bar=2/1.5``), any of
them with a budget (``pimc:nodes=5000``).  :func:`names` lists what ``bezique bots`` shows;
:func:`resolve` reads a spec into the family, settings and budget that play, and
:meth:`Resolved.full` writes that back with every setting spelt out, so a run can be repeated.

The cheating players (``oracle``, ``oracle-c``, ``oracle-hand``: they are given the real deal)
are known here for the arena alone (:func:`resolve` with ``cheats=True`` and :func:`build`);
:func:`make` and :func:`names` never offer them.

Players that need an extra (``openspiel-ismcts`` needs OpenSpiel) are found through the
``bezique.bots`` entry-point group: each entry names a function that registers its players, and
it is called the first time a name is asked for that is not registered yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from .base import Bot, Limit
from .fastismcts import DEFAULT_ITERATIONS, FastIsmctsBot, IsmctsSettings
from .fastpimc import DEFAULT_ROLLOUTS, FastPimcBot, PimcSettings
from .heuristic import HeuristicBot
from .ismcts import IsmctsBot, IsmctsPySettings
from .learned import LearnedBot, LearnedSettings
from .levels import LEVELS, Level, LevelBot
from .random_bot import RandomBot
from .search import PimcBot, PimcPySettings
from .simple import CarelessBot, SimpleBot
from .spec import (
    BUDGET_KEYS,
    BudgetBot,
    NoSettings,
    close_hint,
    limit_text,
    read_limit,
    read_settings,
    settings_text,
    split_spec,
)

BotFactory = Callable[[int | None], Bot]
"""Builds a bot from a seed."""


@dataclass(frozen=True)
class Entry:
    """A kind of player: how it is built from its settings and a seed, and what it is."""

    name: str
    kind: str
    """``level``, ``baseline``, ``family`` or ``cheat`` (arena only)."""
    about: str
    settings: type
    """Its settings dataclass (:class:`~.spec.NoSettings` for a player without settings)."""
    build: Callable[[Any, int | None], Any]
    """The player from its settings and a seed."""
    budget: str = ""
    """Its budget when none is given, for people (``1500 rollouts``)."""


_ENTRIES: dict[str, Entry] = {}


def _add(entry: Entry) -> None:
    key = entry.name
    if not key or key != key.strip().lower() or any(ch.isspace() or ch in ":,=" for ch in key):
        raise ValueError(f"a player's name is one lowercase word: got {entry.name!r}")
    _ENTRIES[key] = entry


def register(name: str, factory: BotFactory, about: str = "", kind: str = "family") -> None:
    """Make a player without settings available to :func:`make` under ``name`` (lowercase, no
    spaces): a ``family`` (an extra's search) or a ``baseline``; it takes a budget in its spec
    as every player does."""
    _add(Entry(name.strip().lower(), kind, about, NoSettings, lambda _s, seed: factory(seed)))


def register_family(
    name: str,
    settings: type,
    build: Callable[[Any, int | None], Bot],
    about: str,
    budget: str = "",
) -> None:
    """Make a family of players available under ``name``: ``build(settings, seed)`` makes one
    from an instance of the frozen dataclass ``settings`` (its fields declared with
    :func:`~.spec.setting`)."""
    _add(Entry(name, "family", about, settings, build, budget))


_PLUGINS_LOADED: list[bool] = []


def _load_plugins() -> None:
    """Call each ``bezique.bots`` entry point once (an extra not installed is skipped)."""
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED.append(True)
    for entry in entry_points(group="bezique.bots"):
        try:
            entry.load()()
        except ImportError:  # the extra it needs is not installed
            continue


def names() -> list[str]:
    """The players :func:`make` knows, as ``bezique bots`` lists them: the levels, the
    baselines and the families (those of installed extras included); never a cheating one."""
    _load_plugins()
    return [n for n, e in _ENTRIES.items() if e.kind != "cheat"]


def entries() -> list[Entry]:
    """What :func:`names` lists, with how each is built."""
    return [_ENTRIES[n] for n in names()]


def about(name: str) -> str:
    """One line describing a player."""
    return _entry(name, cheats=True).about


def levels() -> list[str]:
    """The levels for people, weakest first."""
    return list(LEVELS)


def _entry(name: str, cheats: bool) -> Entry:
    key = name.strip().lower() if isinstance(name, str) else ""
    if key not in _ENTRIES:
        _load_plugins()
    entry = _ENTRIES.get(key)
    if entry is not None and entry.kind == "cheat" and not cheats:
        raise ValueError(f"{key} cheats (it sees every hand): only the arena plays it")
    if entry is None:
        known = names() + ([n for n, e in _ENTRIES.items() if e.kind == "cheat"] if cheats else [])
        raise ValueError(
            f"unknown player {name!r}{close_hint(key, known)}; players: {', '.join(known)}"
        )
    return entry


@dataclass(frozen=True)
class Resolved:
    """A spec read: the name given, the family (or baseline) that plays, its settings and its
    budget."""

    name: str
    """The name as given: a level, a baseline or a family."""
    entry: Entry
    """What plays (for a level, its family)."""
    settings: Any
    limit: Limit | None

    def __str__(self) -> str:
        """The spec, short: the name with the settings that differ from their defaults (none
        for a level) and the budget unless a level's own."""
        level = LEVELS.get(self.name)
        if level is not None:
            own = resolve(level.spec).limit
            parts = [] if self.limit == own else limit_text(self.limit)
        else:
            parts = settings_text(self.settings) + limit_text(self.limit)
        return self.name + (":" + ",".join(parts) if parts else "")

    def full(self) -> str:
        """The spec of what plays, every setting written out with the budget: the same player
        whatever the defaults become."""
        parts = settings_text(self.settings, every=True) + limit_text(self.limit)
        return self.entry.name + (":" + ",".join(parts) if parts else "")


def resolve(text: str, cheats: bool = False) -> Resolved:
    """Read a spec (``expert``, ``pimc-c:bar=2/1.5``, ``pimc:nodes=5000``); ``cheats``: a
    cheating player may be named (the arena's).  ValueError, one line, for an unknown name or
    setting (with the closest known one) or a bad value."""
    name, items = split_spec(text)
    entry = _entry(name, cheats)
    limit = read_limit(items, text.strip())
    level = LEVELS.get(name)
    if level is not None:
        extra = [k for k, _ in items if k not in BUDGET_KEYS]
        if extra:
            raise ValueError(
                f"{name} is a level: it takes a budget ({', '.join(BUDGET_KEYS)}) but no "
                f"setting such as {extra[0]!r}; its spec is {level.spec}"
            )
        base = resolve(level.spec)
        return Resolved(name, base.entry, base.settings, limit or base.limit)
    settings = read_settings(entry.settings, items, text.strip(), name)
    return Resolved(name, entry, settings, limit)


def build(spec: Resolved | str, seed: int | None = None, cheats: bool = False) -> Any:
    """The player a spec names (a :class:`~.base.Bot`; with ``cheats``, an oracle where it
    names one): its budget is the spec's where the caller gives none."""
    r = spec if isinstance(spec, Resolved) else resolve(spec, cheats)
    player = r.entry.build(r.settings, seed)
    if r.entry.kind == "cheat":
        if not cheats:
            raise ValueError(f"{r.name} cheats (it sees every hand): only the arena plays it")
        return player
    bot = BudgetBot(player, r.limit, r.full()) if r.limit is not None else player
    level = LEVELS.get(r.name)
    return LevelBot(level, bot) if level is not None else bot


def make(spec: str, seed: int | None = None) -> Bot:
    """Build a player from its spec; equal specs and seeds give players that choose alike.
    Cheating players are refused."""
    bot = build(spec, seed)
    assert isinstance(bot, Bot)
    return bot


def _level(level: Level) -> Entry:
    return Entry(level.name, "level", f"level: {level.about}", NoSettings, lambda _s, _seed: None)


for _lv in LEVELS.values():
    _add(_level(_lv))

register("random", RandomBot, "any legal action, uniformly at random", "baseline")
register(
    "simple",
    SimpleBot,
    "a quick club player's rules of thumb: melds, brisques, cheap cards",
    "baseline",
)
register(
    "careless",
    CarelessBot,
    "the simple rules of thumb, about one move in three at random",
    "baseline",
)
register(
    "heuristic",
    HeuristicBot,
    "a stronger club player's heuristic: meld timing, the end of the stock, exact last tricks",
    "baseline",
)
_add(
    Entry(
        "learned",
        "baseline",
        "the heuristic's rules of thumb with corrections learned from the search",
        LearnedSettings,
        lambda s, seed: LearnedBot(seed, s),
    )
)
register_family(
    "pimc",
    PimcPySettings,
    lambda s, seed: PimcBot(seed, s),
    "PIMC in Python: sampled deals, each with every card shown, from the heuristic's choice",
    "20000 engine steps (nodes)",
)
register_family(
    "ismcts",
    IsmctsPySettings,
    lambda s, seed: IsmctsBot(seed, s),
    "information-set Monte Carlo tree search in Python over sampled deals",
    "20000 engine steps (nodes)",
)
register_family(
    "pimc-c",
    PimcSettings,
    lambda s, seed: FastPimcBot(seed, s),
    "PIMC in the compiled engine: candidates compared on the same worlds, exact stage 2",
    f"{DEFAULT_ROLLOUTS} rollouts (iterations)",
)
register_family(
    "ismcts-c",
    IsmctsSettings,
    lambda s, seed: FastIsmctsBot(seed, s),
    "IS-MCTS in the compiled engine, the heuristic's move as a PUCT prior",
    f"{DEFAULT_ITERATIONS} iterations",
)


def _oracle(_s: Any, seed: int | None) -> Any:
    from .oracle import OracleBot

    return OracleBot(seed)


def _oracle_c(_s: Any, seed: int | None) -> Any:
    from .fastoracle import FastOracleBot

    return FastOracleBot(seed)


def _oracle_hand(s: Any, seed: int | None) -> Any:
    from .fastoracle import HandOracleBot

    return HandOracleBot(seed, s)


def _hand_settings() -> type:
    from .fastoracle import HandOracleSettings

    return HandOracleSettings


_add(Entry("oracle", "cheat", "sees every hand and the stock (Python)", NoSettings, _oracle))
_add(Entry("oracle-c", "cheat", "sees every hand and the stock (compiled)", NoSettings, _oracle_c))
_add(
    Entry(
        "oracle-hand",
        "cheat",
        "a pimc-c search shown the other hands, not the stock",
        _hand_settings(),
        _oracle_hand,
        "4000 rollouts (iterations)",
    )
)
