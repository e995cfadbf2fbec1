"""Build the native Mind Cycling core: ``python -m peloton.native.build``.

cffi's API mode (out of line): :func:`ffi` declares what Python sees of ``mc.h`` and
:func:`build` writes cffi's C wrapper, then compiles it with the C files of this folder
into ``_mc<EXT_SUFFIX>`` beside them (and ``moves.c``, a CPython extension that builds
the public API's lists of Moves, into ``_moves<EXT_SUFFIX>``), with the compiler named by ``$CC`` (else
Python's own, else ``cc``). The wheel build hook (``hatch_build.py``) and ``make``
call it; when it fails (no compiler, no cffi) Peloton runs on the pure-Python engine.

Floating-point contraction is switched off so that the greedy scores are the Python
engine's to the last bit (ties between moves break the same way).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: The module cffi generates (imported as ``peloton.native._mc``).
MODULE = "peloton.native._mc"
SOURCES = ("rules.c", "rng.c", "greedy.c", "playout.c", "reach.c", "bound.c", "walk.c")

# What Python sees of mc.h (cffi checks it against the header when compiling). Array
# sizes are literal: MC_MAX_RIDERS 42, MC_MAX_TEAMS 7, MC_ROWS 202 (finish <= 200),
# MC_BOUND_ROWS 232.
CDEF = """
typedef struct {
    int lanes, finish, start_rows;
    uint8_t section[202];
    uint16_t rock[202];
    uint16_t feed[202];
    int feed_before[203];
    int n_lines;
    int line_medal[2], line_last[2];
    int last_sprint, last_mountain;
    int n_feed_rows, feed_rows[202];
    int n_feed, feed_sq[2];
} mc_course;

typedef struct {
    int n_riders, n_teams, team_size, shelter, relay_limit, solo;
    uint8_t team[42], type[42];
    int8_t team_riders[7][6];
    int16_t square_of[42];
    int8_t rider_at[6464];
    uint16_t blocked[202];
    int n_on_road;
    uint64_t bottles, unplaced;
    int8_t finished[42];
    int n_finished;
    int8_t medal[4];
    int8_t medal_order[4];
    int n_medals;
    int round, gave, over, current, next_in_order;
    int8_t order[42];
    int n_order;
    uint8_t section[42];
    int8_t allowance[42], leader[42], follower[42];
    int8_t train_place[42];
    uint64_t assessed, against_wind, exhausted, held_bottle;
    uint64_t done;
    int16_t g_head[42];
    int8_t g_size[42], g_closed[42];
    int n_groups;
    int8_t group_of[42];
} mc_race;

typedef struct {
    uint32_t mt[624];
    int index;
} mc_rng;

typedef struct {
    double next_round, train_trust, finish, medal, bottle_round, attack_bottle, give;
    int give_range, give_range_climber;
    double feed_next, follower, relay_room, blocked_wheel;
    double setup_d, setup_s, setup_c;
} mc_weights;

typedef struct {
    int64_t games, moves, rounds;
    int64_t trophies[7], points[7], medals[7];
} mc_stats;

typedef struct {
    int n_ends, ends_cap;
    int32_t *line_at;
    int32_t *codes;
    uint8_t *over;
    int32_t *need;
    uint16_t *road;
    int64_t codes_cap;
    int64_t nodes;
    int64_t mid_positions;
    int64_t bound_calls;
    int status;
} mc_walk_out;

void mc_init_race(mc_race *r);
void mc_put(mc_race *r, int rider, int sq);
void mc_assess(const mc_course *c, mc_race *r);
int mc_legal(const mc_course *c, const mc_race *r, int32_t *out, int cap);
void mc_play(const mc_course *c, mc_race *r, int32_t move);
int mc_team_points(const mc_race *r, int *points);
int mc_best_team(const mc_race *r);
int mc_trophy(const mc_race *r);
double mc_random(mc_rng *g);
void mc_seed(mc_rng *g, uint32_t seed);
int mc_random_playout(const mc_course *c, mc_race *r, mc_rng *g, int32_t *buf, int cap,
                      int max_moves);
int mc_batch_random(const mc_course *c, const mc_race *start, int games, uint32_t seed,
                    int32_t *buf, int cap, mc_stats *stats);
int mc_legal_index(const mc_course *c, const mc_race *r, int32_t *out, int cap, int32_t slots);
int mc_greedy_playout(const mc_course *c, mc_race *r, const mc_weights *w, mc_rng *rngs,
                      const int8_t *rng_of_team, int always_draw, double tolerance,
                      int32_t *buf, int cap, double *scores, int32_t *played, int max_moves);
void mc_score_moves(const mc_course *c, const mc_race *r, const mc_weights *w,
                    const int32_t *moves, int n, double *scores);
int mc_round_reach(const mc_race *r, int16_t *out);
int mc_may_end_this_round(const mc_course *c, const mc_race *r, int last_row);
int mc_dry_after_round(const mc_course *c, const mc_race *r, const int16_t *after, int n);
void mc_lift_lows(const mc_course *c, const mc_race *r, int16_t *after, int n);
typedef struct {
    int finish, relay_limit, top_allowance;
    int n_feed_rows, feed_rows[2];
    int16_t own[2][3][232], lead[2][3][232];
    int16_t train[2][3][7][232];
    uint8_t trainable[2][3][232];
} mc_bounds;
int mc_rounds_needed(const mc_bounds *b, const int16_t *riders, int n, int crossed, int dry,
                     int last_row, int ends_now);
typedef int (*mc_need_fn)(const int16_t *riders, int n, int crossed, int dry, int ends_now);
int mc_walk(const mc_course *c, const mc_race *start, int budget, int last_row,
            const mc_bounds *bounds, mc_need_fn need, int (*tick)(void), mc_walk_out *out);
void mc_walk_free(mc_walk_out *out);
"""

CFLAGS = ("-O2", "-fPIC", "-ffp-contract=off", "-fno-fast-math", "-std=c99", "-Wall")


def ffi() -> Any:
    """The cffi builder of the module (needs cffi; raises ImportError without it)."""
    from cffi import FFI

    builder = FFI()
    builder.cdef(CDEF)
    builder.set_source(MODULE, '#include "mc.h"')
    return builder


def compiler() -> list[str]:
    """The C compiler command: ``$CC``, else the one Python was built with, else ``cc``."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shlex.split(cc)


def target(folder: Path = HERE, name: str = "_mc") -> Path:
    """Where the compiled module ``name`` goes."""
    return folder / (name + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))


def build(folder: Path = HERE) -> Path:
    """Compile the modules into ``folder`` (default: this package's folder): the cffi
    module ``_mc`` and the small CPython extension ``_moves`` (``moves.c``: lists of
    Moves for the public API); the path of ``_mc``.

    Raises ImportError without cffi and :class:`RuntimeError` (saying why) when the
    compiler is missing or fails."""
    builder = ffi()
    out = target(folder)
    with tempfile.TemporaryDirectory(prefix="peloton-native-") as tmp:
        wrapper = Path(tmp) / "_mc.c"
        builder.emit_c_code(str(wrapper))
        _compile(wrapper, out, Path(tmp))
        _compile(HERE / "moves.c", target(folder, "_moves"), Path(tmp))
    return out


def _compile(main: Path, out: Path, tmp: Path) -> None:
    """Compile ``main`` with the rules' C files into the extension module ``out``."""
    include = sysconfig.get_paths()["include"]
    partial = tmp / out.name
    cmd = [
        *compiler(),
        *CFLAGS,
        "-shared",
        f"-I{include}",
        f"-I{HERE}",
        "-o",
        str(partial),
        str(main),
        *(str(HERE / name) for name in SOURCES),
    ]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise RuntimeError(f"no C compiler ({cmd[0]}: {exc.strerror})") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise RuntimeError(f"{cmd[0]} failed ({done.returncode}): " + " | ".join(tail))
    # Moved in whole, so that a process importing it never sees half a file.
    os.replace(partial, out)


def main() -> int:
    """Build in place; print where (or why not) and exit 1 on failure."""
    try:
        path = build()
    except (ImportError, RuntimeError) as exc:
        print(f"peloton native engine not built: {exc}", file=sys.stderr)
        return 1
    print(f"built {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
