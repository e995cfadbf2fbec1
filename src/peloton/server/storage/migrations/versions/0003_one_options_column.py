"""One options column: a table's game and every option of its game's ``from_options``
as JSON (a course whole), instead of the first game's settings in columns of their
own. The rows are copied into a new table that then takes the old one's name; the
whole upgrade is one transaction (:mod:`peloton.server.storage.migrations`), so an
interrupted copy leaves the old table as it was."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

from peloton.core.registry import FIRST_GAME
from peloton.server.storage.migrations import steps

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# A row without a game plays the protocol's first game (FIRST_GAME), the only one the
# first schema knew; the server names no game itself.
#: The name of the copy while it is made (the name the hand-written migration used).
COPY = "tables_rebuilt"


def options_from_first_columns(row: Any) -> dict[str, Any]:
    """The ``options`` of a table stored by the first schema, from its own columns (each
    named as the option it held; the teams and the solo flag say the seats)."""
    return {
        "players": 1 if row["solo"] else len(json.loads(row["teams"])),
        "course": json.loads(row["course"]),
        "riders": row["riders"],
        "wind": row["wind"],
        "relay_limit": row["relay_limit"],
    }


def upgrade() -> None:
    if "course_name" not in steps.columns("tables"):
        return  # a database that never had the first game's columns
    bind = op.get_bind()
    old = sa.Table("tables", sa.MetaData(), autoload_with=bind)  # read with its column types
    rows = bind.execute(sa.select(old)).mappings().all()
    copy = op.create_table(
        COPY,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("final", sa.Text, nullable=True),
    )
    copied = [
        {
            "id": r["id"],
            "created": r["created"],
            "game": r.get("game") or FIRST_GAME,
            "options": r.get("options") or json.dumps(options_from_first_columns(r)),
            "seed": r.get("seed"),
            "status": r["status"],
            "final": r["final"],
        }
        for r in rows
    ]
    if copied:
        bind.execute(sa.insert(copy), copied)
    op.drop_table("tables")
    op.rename_table(COPY, "tables")


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
