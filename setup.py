"""Build the compiled engine (bezique.fast._engine) where a C compiler is available.

Everything else is in pyproject.toml.  Without a compiler the extension is skipped with a
warning and bezique runs on its reference core alone (``bezique.fast.available()`` is False).
Set ``BEZIQUE_REQUIRE_FAST=1`` to make a failed build an error (CI does, so that a broken
extension cannot pass unnoticed).
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCES = [
    "engine.c",
    "declare.c",
    "deal.c",
    "notation.c",
    "search.c",
    "policy.c",
    "solver.c",
    "endgame.c",
    "ismcts.c",
    "duel.c",
    "config.c",
    "load.c",
    "encode.c",
    "value.c",
    "pymod.c",
]


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing when the C compiler is missing or fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # no compiler at all
            self._skip(e)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:  # the compiler failed
            self._skip(e)

    def _skip(self, error: Exception) -> None:
        if os.environ.get("BEZIQUE_REQUIRE_FAST"):
            raise error
        print(
            f"warning: the compiled engine was not built ({error}); "
            "bezique will use its reference core only",
            file=sys.stderr,
        )


setup(
    ext_modules=[
        Extension(
            "bezique.fast._engine",
            sources=[f"src/bezique/fast/{s}" for s in SOURCES],
            depends=[
                "src/bezique/fast/engine.h",
                "src/bezique/fast/engine_int.h",
                "src/bezique/fast/search.h",
                "src/bezique/fast/pymod.h",
                "src/bezique/fast/tables.h",
                "src/bezique/fast/config_fields.h",
            ],
            extra_compile_args=[
                "-std=c11",
                "-O3",
                "-fvisibility=hidden",
                "-fno-semantic-interposition",
            ],
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
