"""Player specs: a player's name with its settings and budget, written as one string.

A spec is written ``NAME`` or ``NAME:key=value,key=value,...``, the way rules strings carry their
options: ``pimc-c:prior=learned,bar=2/1.5,iterations=4000``.  Keys are lowercase words
(``-`` and ``_`` alike); ``nodes``, ``iterations`` and ``time`` are the budget any player takes
(:class:`~.base.Limit`, used where the caller gives none), the other keys are the settings of
the player's family (one frozen dataclass a family, its fields declared with :func:`setting`).

A value is read by its field's :class:`Codec`: whole numbers, decimals, ``yes``/``no``, a word
from a list, a pair ``a/b``, a path, or ``off`` where the setting may be switched off.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from ..core.observation import Observation
from .base import Bot, Limit, PlayResult

BUDGET_KEYS = tuple(sorted((f.name for f in fields(Limit)), key=lambda k: (k != "iterations", k)))
"""The keys every player takes: its budget, one key a field of :class:`~.base.Limit`."""
_DECIMAL = {f.name for f in fields(Limit) if str(f.type).startswith("float")}
"""The budget keys read as decimals (seconds); the others are whole numbers."""


class Codec:
    """How one setting is read from text and written back, and the values it allows."""

    def __init__(
        self,
        kind: str,
        low: float | None = None,
        high: float | None = None,
        words: Sequence[str] = (),
        off: bool = False,
    ) -> None:
        self.kind = kind
        """``int``, ``float``, ``flag``, ``word``, ``pair``, ``int-pair`` or ``path``."""
        self.low, self.high = low, high
        self.words = tuple(words)
        self.off = off
        """Whether ``off`` is allowed (the value None)."""

    def range(self) -> str:
        """The values allowed, for people."""
        if self.kind == "flag":
            text = "yes|no"
        elif self.kind == "word":
            text = "|".join(self.words)
        elif self.kind == "path":
            text = "a file"
        else:
            lo = "" if self.low is None else _num(self.low)
            hi = "" if self.high is None else _num(self.high)
            text = f"{lo}..{hi}"
            if self.kind == "pair":
                text = f"points/z, each {text}"
            elif self.kind == "int-pair":
                text = f"tricks/stock, each {text}"
        return text + ("|off" if self.off else "")

    def read(self, text: str) -> Any:
        """The value ``text`` stands for; ValueError says what is allowed."""
        t = text.strip()
        if self.off and t.lower() == "off":
            return None
        try:
            if self.kind == "flag":
                word = t.lower()
                if word not in ("yes", "no", "true", "false", "1", "0"):
                    raise ValueError
                return word in ("yes", "true", "1")
            if self.kind == "word":
                word = t.lower().replace("_", "-")
                if word not in self.words:
                    raise ValueError
                return word
            if self.kind == "path":
                if not t:
                    raise ValueError
                return t
            if self.kind in ("pair", "int-pair"):
                a, slash, b = t.partition("/")
                if not slash:
                    raise ValueError
                one = int if self.kind == "int-pair" else float
                pair = (self._number(a, one), self._number(b, one))
                return pair
            return self._number(t, int if self.kind == "int" else float)
        except ValueError:
            raise ValueError(f"{text!r} is not one of {self.range()}") from None

    def _number(self, text: str, kind: type) -> Any:
        value = kind(text.strip())
        if value != value or (self.low is not None and value < self.low):  # NaN, too small
            raise ValueError
        if self.high is not None and value > self.high:
            raise ValueError
        return float(value) if kind is float else value

    def write(self, value: Any) -> str:
        """The text that :meth:`read` turns into ``value``."""
        if value is None:
            return "off"
        if self.kind == "flag":
            return "yes" if value else "no"
        if self.kind in ("pair", "int-pair"):
            return f"{_num(value[0])}/{_num(value[1])}"
        if isinstance(value, float):
            return _num(value)
        return str(value)


def _num(x: float) -> str:
    """A number as short as it reads back: 2.0 -> 2, 0.25 -> 0.25."""
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(x)


def setting(default: Any, codec: Codec, doc: str) -> Any:
    """A field of a family's settings dataclass: its default, how it is written, what it does."""
    return field(default=default, metadata={"codec": codec, "doc": doc})


def setting_fields(settings_type: type) -> list[dataclasses.Field[Any]]:
    """The fields of a settings dataclass that a spec may set (those declared by
    :func:`setting`)."""
    return [f for f in fields(settings_type) if "codec" in f.metadata]


def describe_settings(settings_type: type) -> list[tuple[str, str, str, str]]:
    """Each setting of a family: its key, default, allowed values and meaning."""
    base = settings_type()
    out = []
    for f in setting_fields(settings_type):
        codec: Codec = f.metadata["codec"]
        out.append((f.name, codec.write(getattr(base, f.name)), codec.range(), f.metadata["doc"]))
    return out


def settings_text(settings: Any, every: bool = False) -> list[str]:
    """``key=value`` of each setting that differs from the family's default (``every``: of each
    setting), in the order of the dataclass."""
    base = type(settings)()
    out = []
    for f in setting_fields(type(settings)):
        value = getattr(settings, f.name)
        if every or value != getattr(base, f.name):
            out.append(f"{f.name}={f.metadata['codec'].write(value)}")
    return out


def limit_text(limit: Limit | None) -> list[str]:
    """``key=value`` of each part of a budget that is set."""
    if limit is None:
        return []
    out = []
    for key in BUDGET_KEYS:
        value = getattr(limit, key)
        if value is not None:
            out.append(f"{key}={_num(value)}")
    return out


def close_hint(word: str, known: Sequence[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``known``, or nothing."""
    hint = difflib.get_close_matches(word, list(known), 1)
    return f" (did you mean {hint[0]!r}?)" if hint else ""


def split_spec(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The name (lowercase) and the ``(key, value)`` items of a spec, keys lowercase with
    ``_`` for ``-``; ValueError for a malformed item."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("a player is named: an empty name was given")
    name, _, rest = text.strip().partition(":")
    items: list[tuple[str, str]] = []
    for part in rest.split(",") if rest.strip() else []:
        key, eq, value = part.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not eq or not key or not value.strip():
            raise ValueError(f"bad setting {part.strip()!r} in {text.strip()!r}: write key=value")
        items.append((key, value.strip()))
    return name.strip().lower(), items


def read_limit(items: Sequence[tuple[str, str]], text: str) -> Limit | None:
    """The budget among ``items`` (None where none is given)."""
    values: dict[str, Any] = {}
    for key, value in items:
        if key in BUDGET_KEYS:
            try:
                values[key] = float(value) if key in _DECIMAL else int(value)
                Limit(**{key: values[key]})  # checks the value
            except ValueError:
                what = "a number of seconds" if key in _DECIMAL else "a positive whole number"
                raise ValueError(f"bad {key} {value!r} in {text!r}: {what}") from None
    return Limit(**values) if values else None


def read_settings(
    settings_type: type, items: Sequence[tuple[str, str]], text: str, player: str
) -> Any:
    """The settings ``items`` give (the budget keys left out), the rest at their defaults;
    ValueError naming a misspelt key (with the closest one) or a bad value."""
    known = {f.name: f for f in setting_fields(settings_type)}
    values: dict[str, Any] = {}
    for key, value in items:
        if key in BUDGET_KEYS:
            continue
        f = known.get(key)
        if f is None:
            keys = [*known, *BUDGET_KEYS]
            raise ValueError(
                f"{player} has no setting {key!r}{close_hint(key, keys)}; "
                f"its settings: {', '.join(keys)}"
            )
        try:
            values[key] = f.metadata["codec"].read(value)
        except ValueError as e:
            raise ValueError(f"bad {key} in {text!r}: {e}") from None
    return settings_type(**values)


class BudgetBot(Bot):
    """A bot with the budget its spec gave: that budget where the caller gives none."""

    def __init__(self, bot: Bot, limit: Limit, spec: str) -> None:
        super().__init__(bot.seed)
        self.bot = bot
        self.limit = limit
        self.name = spec

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        return self.bot.play(observation, limit if limit is not None else self.limit)

    def close(self) -> None:
        self.bot.close()

    def __repr__(self) -> str:
        return f"<BudgetBot {self.name!r}: {self.bot!r}>"


@dataclass(frozen=True)
class NoSettings:
    """The settings of a player that has none (a baseline)."""
