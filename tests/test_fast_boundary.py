"""The typed boundary between Python and the compiled engine (bezique.fast).

The compiled options cross by name, from one generated list (``scripts/make_fast_tables.py``
writes ``config_fields.h`` for C and ``_fields.py`` for Python); a name missing or unknown on
either side is a clear error.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bezique import Rules, fast
from bezique.fast._fields import CONFIG_FIELDS

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "make_fast_tables.py"
# the module (bezique.fast has a function of the same name)
_config = importlib.import_module("bezique.fast._config")

needs_engine = pytest.mark.skipif(
    os.environ.get("BEZIQUE_NO_FAST") == "1" or not fast.available(),
    reason="the compiled engine is not built",
)


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_fast_tables", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compile(fields: dict[str, Any], rules: Rules) -> Any:
    from bezique.fast import _engine

    scores = [0] * 52
    plans: tuple[tuple[Any, ...], ...] = ((), (), (), (), ())
    return _engine.Config(fields, _config.card_kinds(rules), scores, plans)


def test_generated_files_are_current() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_check_names_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gen = _generator()
    stale = tmp_path / "src" / "bezique" / "fast" / "_fields.py"
    stale.parent.mkdir(parents=True)
    stale.write_text(gen.render_fields_module().replace('"target"', '"goal"'))
    monkeypatch.setattr(gen, "FAST", stale.parent)
    monkeypatch.setattr(gen, "FIELDS_MODULE", stale)
    monkeypatch.setattr(gen, "HEADER", tmp_path / "missing.h")
    (tmp_path / "missing.h").write_text(gen.render())
    monkeypatch.setattr(gen, "FIELDS_HEADER", tmp_path / "fields.h")
    (tmp_path / "fields.h").write_text(gen.render_fields_header())
    monkeypatch.setattr(sys, "argv", ["make_fast_tables.py", "--check"])
    with pytest.raises(SystemExit) as stop:
        gen.main()
    assert stop.value.code == 1


@pytest.mark.parametrize("preset", ["classic", "haitian", "eight-pack"])
def test_python_gives_exactly_the_listed_fields(preset: str) -> None:
    values = _config.fields(Rules.preset(preset))
    assert list(values) == [name for name, _ in CONFIG_FIELDS]
    for name, count in CONFIG_FIELDS:
        value = values[name]
        if count == 1:
            assert isinstance(value, int), name
        else:
            assert isinstance(value, tuple) and len(value) == count, name


@needs_engine
def test_a_missing_field_is_named() -> None:
    rules = Rules.preset("classic")
    values = _config.fields(rules)
    values["goal"] = values.pop("target")  # a field renamed on one side only
    with pytest.raises(ValueError, match="config field target is missing"):
        _compile(values, rules)


@needs_engine
def test_an_unknown_field_is_named() -> None:
    rules = Rules.preset("classic")
    values = _config.fields(rules)
    values["extra_option"] = 1
    with pytest.raises(ValueError, match="unknown config field extra_option"):
        _compile(values, rules)


@needs_engine
def test_an_array_field_of_the_wrong_length_is_named() -> None:
    rules = Rules.preset("classic")
    values = _config.fields(rules)
    values["rank_points"] = (1, 2, 3)
    with pytest.raises(ValueError, match="config field rank_points: expected 8 numbers"):
        _compile(values, rules)


@needs_engine
def test_the_fields_by_name_configure_the_engine() -> None:
    rules = Rules.preset("classic")
    assert _compile(_config.fields(rules), rules) is not None
    with pytest.raises(TypeError):
        _compile(list(_config.fields(rules).values()), rules)  # type: ignore[arg-type]
