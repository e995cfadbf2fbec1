"""Profiles and ratings: a seat remembers the profile it was taken with (an older seat
was taken anonymously), a table may be unrated (an older one is rated), the profiles
and their sessions, and the rated games in the order their ratings changed."""

from __future__ import annotations

import sqlalchemy as sa

from peloton.server.storage.migrations import steps

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.add_column("tables", sa.Column("rated", sa.Boolean, nullable=True))
    steps.add_column("seats", sa.Column("profile", sa.String(40), nullable=True))
    steps.create_table(
        "profiles",
        sa.Column("name", sa.String(24), primary_key=True),
        sa.Column("name_key", sa.String(96), nullable=False, unique=True),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    steps.create_table(
        "profile_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    steps.create_table(
        "rated_games",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "player", name="rated_once"),
    )


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
