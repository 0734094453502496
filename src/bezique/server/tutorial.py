"""The guided first deal: a classic table against the gentlest computer, dealt from a fixed,
friendly deck (you lead; your hand holds the seven of trumps, a bezique, a marriage and two
brisques), so that each thing the browser's tutorial explains comes up early."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, Field

from ..core.rules import Rules
from .protocol import MAX_NAME, clean_name
from .tables import Lobby, levels

TUTORIAL_RULES = "classic"
TUTORIAL_SEED = 1767
"""The deal: you (seat 0) lead, holding 10♠ K♠ Q♠ 8♠ A♥ 7♥ J♦ 7♦ under the turn-up K♥."""


class TutorialBody(BaseModel):
    name: str = Field(default="", max_length=200)


def add_routes(app: FastAPI, lobby: Lobby) -> None:
    """``POST /api/tutorial``: a new table for the guided first deal."""

    @app.post("/api/tutorial")
    async def tutorial(body: TutorialBody) -> dict[str, Any]:
        level = levels()[0]  # the gentlest
        seats: list[dict[str, Any]] = [{"kind": "me"}, {"kind": "bot", "level": level}]
        name = clean_name(body.name, "Player")[:MAX_NAME]
        table, seat, token = await lobby.create(
            Rules.from_string(TUTORIAL_RULES), seats, name, hints=True, seed=TUTORIAL_SEED
        )
        return {"code": table.code, "seat": seat, "token": token, "table": table.info()}


__all__ = ["TUTORIAL_SEED", "add_routes"]
