"""Tables of any game: a table names its game and keeps that game's options and chance
seed (game, options, seed; a row without a game is the first game's), and a move's
text takes 200 characters (other games write longer moves; SQLite ignores lengths)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from peloton.server.storage.migrations import steps

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.add_column("tables", sa.Column("game", sa.String(32), nullable=True))
    steps.add_column("tables", sa.Column("options", sa.Text, nullable=True))
    steps.add_column("tables", sa.Column("seed", sa.BigInteger, nullable=True))
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column(
            "moves",
            "text",
            type_=sa.String(200),
            existing_type=sa.String(64),
            existing_nullable=False,
        )


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
