"""The documents say what the engine does with carte blanche: it is scored
automatically when due (RULES.md 2.5, fact R04; docs/variants.md), never declared, so no
legal action names it.  docs/rules.md and docs/api.md once described it as declared after a
trick and listed it among the action names."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bezique import Deal, Rules

DOCS = Path(__file__).resolve().parent.parent / "docs"


def sentences_about_carte_blanche(name: str) -> list[str]:
    text = " ".join((DOCS / name).read_text().split())
    return [s for s in re.split(r"(?<=[.;:])\s", text) if "carte" in s.lower()]


def test_the_engine_never_offers_carte_blanche_as_an_action() -> None:
    """Greek (carte blanche 250) and Rubicon (50, repeated): random deals until one scores it."""
    for preset in ("greek", "rubicon"):
        scored = False
        for seed in range(400):
            deal = Deal.new(Rules.preset(preset), seed=seed)
            rng = random.Random(seed)
            while not deal.is_over:
                actions = deal.legal_actions()
                assert not any("carte" in str(a) for a in actions)
                deal.apply(rng.choice(actions))
            if any(what.startswith("carte blanche") for _, _, what, _ in deal.events):
                scored = True
                break
        assert scored, preset


def test_no_document_says_carte_blanche_is_declared_or_an_action() -> None:
    for name in ("rules.md", "api.md", "variants.md"):
        for sentence in sentences_about_carte_blanche(name):
            low = sentence.lower()
            assert "declared after" not in low, (name, sentence)
            assert not re.search(r"`two-sevens`, `carte-blanche`", sentence), (name, sentence)
    api = " ".join((DOCS / "api.md").read_text().split())
    assert "Carte blanche is not an action" in api
