"""The names the tried players had, and the spec strings that play them now.

Every player tried while the search was developed is a parameter set of a family
(``bezique bots`` lists the families and their settings).  The run records, notebooks and
scripts of the laboratory name them by the names they had; :data:`TRIAL_SPECS` gives, for each
such name, the spec string that plays exactly as it did (the same choices at the same seed,
pinned by tests/test_bots_trials.py)::

    bezique arena "$(python lab/trial_specs.py pimc-c-lpv8)" heuristic --deals 10

Paths in the specs (``lab/weights/...``) are read from the checkout's root.  The cheating
``oracle-hand`` variants play in the arena only.
"""

from __future__ import annotations

import sys

_LP = "prior=learned,playout=learned,learned_bar=2/1.5"
"""The search from the learned policy's choice, played out by it, at a lower bar."""
_LP0 = "prior=learned,playout=learned,learned_explore=0,learned_bar=2/1.5"
"""The same without random moves in the learned playouts: the expert level's search."""
_NET = "weights=lab/weights/policy_classic_net.json"
_SMART = "playout=smart,couple=yes"
_LATE = "late_stock=12,late_bar=2/1.5"

_SEARCH = {
    "pimc-c-smart": f"pimc-c:{_SMART}",
    "pimc-c-late": f"pimc-c:{_SMART},{_LATE}",
    "pimc-c-model": f"pimc-c:{_SMART},explore=0,{_LATE}",
    "pimc-c-inf": "pimc-c:inference=1",
    "pimc-c-learned": "pimc-c:prior=learned",
    "pimc-c-lp": f"pimc-c:{_LP}",
    "pimc-c-lpn": f"pimc-c:{_LP},{_NET}",
    "pimc-c-bel": f"pimc-c:{_LP},belief=1",
    "pimc-c-opp": f"pimc-c:{_LP},opponent=smart",
    "pimc-c-lp0": f"pimc-c:{_LP0}",
    "pimc-c-lpn0": f"pimc-c:{_LP0},{_NET}",
    "pimc-c-opp0": f"pimc-c:{_LP0},opponent=smart",
    "pimc-c-lpv": f"pimc-c:{_LP0},cut=4/8",
    "pimc-c-lpv1": f"pimc-c:{_LP0},cut=1/8",
    "pimc-c-lpv8": f"pimc-c:{_LP0},cut=8/8",
    "pimc-c-lpvs": f"pimc-c:{_LP0},cut=8/8,value=lab/weights/value_classic_search.json",
    "pimc-c-v1": "pimc-c:bar=2/0,futility=off,keep_prior=no",
}


def _at(spec: str, rollouts: int) -> str:
    return f"{spec},iterations={rollouts}" if ":" in spec else f"{spec}:iterations={rollouts}"


TRIAL_SPECS: dict[str, str] = {
    "learned-net": f"learned:{_NET}",
    **_SEARCH,
    "hard-c": "pimc-c:iterations=1200",
    "expert-c": "pimc-c:iterations=4000",
    **{
        "expert-c-" + name.removeprefix("pimc-c-"): _at(
            spec, 8000 if name in ("pimc-c-late", "pimc-c-model") else 4000
        )
        for name, spec in _SEARCH.items()
        if name != "pimc-c-v1"
    },
    "expert-c-ismcts": "ismcts-c:iterations=2000",
    "hard-old": "pimc:nodes=6000",
    "expert-old": "ismcts:nodes=20000",
    "oracle-hand": f"oracle-hand:{_LP}",
    "oracle-hand-late": f"oracle-hand:{_LP},shown=16",
    "oracle-hand-lp0": f"oracle-hand:{_LP0}",
}
"""Each name a tried player had, and the spec string that plays as it did."""


def spec_for(name: str) -> str:
    """The spec of ``name``: a tried player's, or ``name`` itself (a player of today)."""
    return TRIAL_SPECS.get(name.strip().lower(), name)


if __name__ == "__main__":
    print("\n".join(spec_for(n) for n in sys.argv[1:]))
