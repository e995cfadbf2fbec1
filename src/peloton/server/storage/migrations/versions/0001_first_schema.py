"""The first released schema: a table kept the first game's settings in columns of
its own (course_name, course, teams, riders, wind, relay_limit, solo), its seats (a
hash of each seat token, never the token) and its moves (64 characters were enough)."""

from __future__ import annotations

import sqlalchemy as sa

from peloton.server.storage.migrations import steps

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("course_name", sa.String(200), nullable=False),
        sa.Column("course", sa.Text, nullable=False),
        sa.Column("teams", sa.Text, nullable=False),
        sa.Column("riders", sa.Integer, nullable=False),
        sa.Column("wind", sa.String(16), nullable=False),
        sa.Column("relay_limit", sa.Integer, nullable=False),
        sa.Column("solo", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("final", sa.Text, nullable=True),
    )
    steps.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.String(1), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("name", sa.String(200), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    steps.create_table(
        "moves",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("text", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
