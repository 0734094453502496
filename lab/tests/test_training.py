"""The scripts that fit the shipped weights (lab/scripts/train_belief.py, train_policy.py) and
tune the smart policy (tune_policy.py), each on a tiny run: they fit, write and refuse bad input."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bezique import fast
from bezique.bots.belief import BeliefModel
from bezique.fast.smart import (
    LEARNED_NAMES,
    NET_NAMES,
    SMART_DEFAULT,
    SMART_NAMES,
    check_params,
)

pytestmark = pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def script_module(name: str) -> ModuleType:
    """The lab script ``name`` loaded as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_training_script_fits_and_writes_a_model(tmp_path: Path) -> None:
    out = tmp_path / "belief.json"
    run = subprocess.run(
        [
            sys.executable,
            str(SCRIPTS / "train_belief.py"),
            "--data",
            str(tmp_path / "data"),
            "--deals",
            "0:20",
            "--seed",
            "5",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    model = BeliefModel.load(out)
    assert any(t != 0 for t in model.theta)
    assert "held-out gain over the base rate" in run.stdout
    assert model.info["deals"] == "0:20"


def test_the_training_script_fits_and_checks_its_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = script_module("train_policy")
    out = tmp_path / "policy.json"
    data = tmp_path / "data"
    args = ["--positions", "60", "--worlds", "4", "--rounds", "2", "--check-decks", "50"]
    args += ["--data", str(data), "--out", str(out)]
    assert module.main(args) == 0
    saved = json.loads(out.read_text())
    assert len(saved["params"]) == len(SMART_NAMES) + len(LEARNED_NAMES)
    assert saved["params"][: len(SMART_NAMES)] == list(SMART_DEFAULT)
    assert [r["seed"] for r in saved["rounds"]] == [1, 2]
    assert all(r["rows"] > 60 and r["duel_decks"] == 50 for r in saved["rounds"])
    assert sorted(p.name for p in data.iterdir()) == ["round-1.npz", "round-2.npz"]
    assert module.main([*args, "--ridge", "100"]) == 0  # the positions read back, refit
    assert json.loads(out.read_text())["params"] != saved["params"]
    with pytest.raises(SystemExit):
        module.main(["--rounds", "0"])
    for bad, says in (
        (["--epochs", "-1"], "--epochs must be 0"),
        (["--also", str(tmp_path / "missing.npz")], "--also: no such file"),
    ):
        with pytest.raises(SystemExit):
            module.main(bad)
        assert says in capsys.readouterr().err
    # a network on top, the first round's positions fit again with the second's
    net_args = [*args, "--net", "--epochs", "3", "--rounds", "1"]
    net_args += ["--also", str(data / "round-2.npz"), "--base", str(out)]
    assert module.main(net_args) == 0
    with_net = json.loads(out.read_text())
    assert len(with_net["params"]) == len(SMART_NAMES) + len(LEARNED_NAMES) + len(NET_NAMES)
    assert with_net["names"][-1] == NET_NAMES[-1]
    assert with_net["rounds"][0]["rows"] > 120  # both files' positions
    assert check_params(with_net["params"]) == tuple(with_net["params"])


def test_the_tuning_script_probes_every_weight_and_checks_on_fresh_decks(tmp_path: Path) -> None:
    module = script_module("tune_policy")
    out = tmp_path / "tune.json"
    args = ["--decks", "40", "--check-decks", "40", "--seed", "3", "--json", str(out)]
    assert module.main(args) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [p["weight"] for p in report["probes"]] == [n for n in SMART_NAMES for _ in (0, 1)]
    assert report["check"]["decks"] == 40 and math.isfinite(report["check"]["gain"])
    with pytest.raises(SystemExit):
        module.main(["--preset", "four"])
