"""The service's own bodies (``routers/pages.py``): the catalogue of patches, health, the AI's names and the
one error body.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from patchwork_opt.apps.web.schemas.common import Cell
from patchwork_opt.core.catalogue import LEATHER_PRINTINGS, PATCHES
from patchwork_opt.core.state import END, INCOME_MARKS


class PatchView(BaseModel):
    id: int
    cost: int
    time: int
    income: int
    area: int
    orientations: list[OrientationView]


class OrientationView(BaseModel):
    cells: list[Cell]
    buttons: list[Cell]
    height: int
    width: int


class Catalogue(BaseModel):
    """The fixed facts the page needs: patches with their orientations, and the time track."""

    patches: list[PatchView]
    end: int
    income_marks: list[int]
    leather_printings: dict[str, list[int]] = Field(
        description="each printing of the board (revised, classic) with its five leather spaces")


PatchView.model_rebuild()


class Health(BaseModel):
    ok: bool
    solvers: list[str] = Field(description="the solver endpoints: POST /api/<name>")
    ai: list[str] = Field(description="the AI names a game may be played against")
    analyses: dict[str, int] = Field(
        description="analyses this process made and reused from the cache (shared by every server on the database)"
    )
    streams: dict[str, int] = Field(
        default_factory=dict,
        description="live analyses (GET /api/analysis/stream) this server runs now (running) and at most at once "
                    "(capacity), and its analysis workers that have loaded the compiled searches (ready_workers)",
    )


class AiInfo(BaseModel):
    name: str
    default: bool


class ErrorBody(BaseModel):
    detail: str = Field(description="what is wrong in one line, naming each field at fault (for programs)")
    words: str = Field(description="the same for a player, in sentences (what the pages show)")


def catalogue() -> Catalogue:
    return Catalogue(
        patches=[
            PatchView(
                id=p.id,
                cost=p.cost,
                time=p.time,
                income=p.income,
                area=p.area,
                orientations=[
                    OrientationView(cells=list(o.cells), buttons=list(o.buttons), height=o.height, width=o.width)
                    for o in p.orientations
                ],
            )
            for p in PATCHES
        ],
        end=END,
        income_marks=list(INCOME_MARKS),
        leather_printings={name: list(spaces) for name, spaces in LEATHER_PRINTINGS.items()},
    )
