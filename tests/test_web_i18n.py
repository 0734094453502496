"""The browser client's translations (web/i18n/*.json): every language has every key of the
English file and no other, the same {placeholders}, and the rules page's texts: each rule
option's meaning (English identical to Rules.option_docs()) and each meld's name."""

from __future__ import annotations

import re

import pytest

from bezique import Rules
from bezique.core.melds import MELDS
from helpers import WEB, strings

LANGS = ["en", "fr", "ru", "el", "kk", "bs"]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CHOICES = re.compile(r" \[[^\]]*\]$")  # the allowed values option_docs() appends


def test_the_client_offers_exactly_these_languages() -> None:
    app = (WEB / "common.js").read_text(encoding="utf-8")
    m = re.search(r"const LANGS = \[([^\]]*)\]", app)
    assert m is not None
    assert re.findall(r'"(\w+)"', m.group(1)) == LANGS
    assert sorted(p.stem for p in (WEB / "i18n").glob("*.json")) == sorted(LANGS)


def test_english_has_every_option_and_meld() -> None:
    en = strings("en")
    docs = Rules.option_docs()
    wrong = {n: en.get(f"option.{n}") for n, doc in docs.items() if en.get(f"option.{n}") != doc}
    assert not wrong, "en.json's option.* must equal Rules.option_docs()"
    stale = [k for k in en if k.startswith("option.") and k[len("option.") :] not in docs]
    assert not stale, "en.json has options the rules no longer have"
    assert not [m.name for m in MELDS if f"meld.{m.name}" not in en]


@pytest.mark.parametrize("lang", [x for x in LANGS if x != "en"])
def test_translation_matches_english(lang: str) -> None:
    en, tr = strings("en"), strings(lang)
    assert not sorted(set(en) - set(tr)), f"{lang}.json lacks these keys"
    assert not sorted(set(tr) - set(en)), f"{lang}.json has keys en.json lacks"
    for key, text in tr.items():
        assert isinstance(text, str) and text.strip(), f"{lang}: {key} is empty"
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(en[key])), (
            f"{lang}: {key} has other placeholders than English"
        )
    for name, doc in Rules.option_docs().items():
        key = f"option.{name}"
        choices = CHOICES.search(doc)
        if choices:  # the allowed values stay as they are, untranslated, at the end
            assert tr[key].endswith(choices.group(0)), f"{lang}: {key} lost {choices.group(0)}"
        assert tr[key] != doc, f"{lang}: {key} is the English text"
