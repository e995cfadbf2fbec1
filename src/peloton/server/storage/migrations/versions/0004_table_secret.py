"""A secret for each table (256 random bits, hex): every decision of its bots draws from
it and the move's index. Older tables are given theirs, each its own."""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

from peloton.server.storage.migrations import steps

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.add_column("tables", sa.Column("secret", sa.String(64), nullable=True))
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("secret", sa.String))
    bind = op.get_bind()
    missing = bind.execute(sa.select(tables.c.id).where(tables.c.secret.is_(None))).scalars().all()
    if missing:
        fill = (
            sa.update(tables)
            .where(tables.c.id == sa.bindparam("t_id"))
            .values(secret=sa.bindparam("t_secret"))
        )
        bind.execute(fill, [{"t_id": i, "t_secret": secrets.token_hex(32)} for i in missing])


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
