"""A table's clock (JSON: time control, seconds left, stand-in level, seats it plays)."""

from __future__ import annotations

import sqlalchemy as sa

from peloton.server.storage.migrations import steps

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.add_column("tables", sa.Column("clock", sa.Text, nullable=True))


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
