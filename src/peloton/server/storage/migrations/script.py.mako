"""${message}

Revision ${up_revision}, after ${down_revision | comma,n}.
"""

from __future__ import annotations

from alembic import op
import sqlalchemy as sa

from peloton.server.storage.migrations import steps

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = None
depends_on = None


def upgrade() -> None:
    ${upgrades if upgrades else "pass"}


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
