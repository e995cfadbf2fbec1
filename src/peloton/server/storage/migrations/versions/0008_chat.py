"""The tables' chat: its messages in order, and whether the players muted the spectators."""

from __future__ import annotations

import sqlalchemy as sa

from peloton.server.storage.migrations import steps

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.create_table(
        "chat_messages",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seat", sa.String(1), nullable=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("move", sa.Integer, nullable=False),
    )
    steps.create_table(
        "chat_settings",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("muted", sa.Integer, nullable=False),
        sa.Column("seat", sa.String(1), nullable=True),
        sa.Column("changed", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
