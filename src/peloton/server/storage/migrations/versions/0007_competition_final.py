"""A finished competition keeps its final standings, so that a start need not replay it."""

from __future__ import annotations

import sqlalchemy as sa

from peloton.server.storage.migrations import steps

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.add_column("competitions", sa.Column("final", sa.Text, nullable=True))


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
