"""CHANGELOG.md follows Keep a Changelog, and its latest release is the version the package and
pyproject.toml say."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import bezique

ROOT = Path(__file__).resolve().parent.parent
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.M)
SECTIONS = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_the_latest_release_is_the_packages_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = RELEASE.findall(text)
    assert releases, "CHANGELOG.md names no release as '## [X.Y.Z] - YYYY-MM-DD'"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert releases[0][0] == project == bezique.__version__
    versions = [tuple(int(n) for n in v.split(".")) for v, _ in releases]
    assert versions == sorted(versions, reverse=True), "newest first"
    assert versions[0] > (0, 1, 0)


def test_the_form_is_keep_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    first = RELEASE.search(text)
    assert first is not None
    assert "## [Unreleased]" in text and text.index("## [Unreleased]") < first.start()
    kinds = set(re.findall(r"^### (\w+)$", text, re.M))
    assert kinds and kinds <= SECTIONS, kinds - SECTIONS
