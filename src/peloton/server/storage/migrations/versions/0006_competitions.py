"""Competitions (stage races, omniums...): their kind, settings, seats and tables."""

from __future__ import annotations

import sqlalchemy as sa

from peloton.server.storage.migrations import steps

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.create_table(
        "competitions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("tables", sa.Text, nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
