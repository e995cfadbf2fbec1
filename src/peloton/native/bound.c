/* The solo solver's later-rounds bound in C: Bounds.rounds_needed of
 * peloton.games.mindcycling.solver.bounds (with Bounds.step, advance, may_refill,
 * own_reach, may_end, and team.train_front, rider_train_reach, _chain), line for
 * line, so that the round walk (walk.c) prunes without calling back into Python.
 *
 * The tables stay Python's: Bounds builds them (each type's reach from each row on
 * its own legs, as a train's mover, on a train of n other riders, whether it may ride
 * a train there; for a team with bottles and a dry one) and native_walk copies them
 * into an mc_bounds.  Only the arithmetic on a set of riders' intervals lives here:
 *
 * - a round (step): every rider, anywhere in its interval [low, high], ends at most
 *   at the best of its own legs (MC-2.1, MC-7.2; on the top row one row less, against
 *   the wind, MC-5.4) and a train (MC-6), the train capped by the train's front
 *   (train_front: the furthest normal move plus one row per relay of the chain that
 *   may stand right behind its rider, MC-6.1, MC-6.5) and by a founder that is
 *   another rider of its own type in the rider's column (rider_train_reach);
 * - the last-round rule (may_end, MC-9.3): the game ends only in a round from whose
 *   start three riders' own legs may take them across, a fourth only by the first
 *   relay behind the rider left on the road (relays_across), and with a goal row that
 *   rider ends on its own legs (MC-9.4);
 * - a dry team stays dry until a domestique may pass a feed zone's row (MC-7.5).
 *
 * tests/games/mindcycling/solver/test_native_walk.py checks that mc_rounds_needed
 * equals Bounds.rounds_needed on Hypothesis-drawn intervals and that the walk pruned
 * by it keeps exactly the Python walk's ends.
 */
#include <string.h>
#include "mc.h"

#define SOLO_TARGET 4 /* MC-9.3 */
#define NEVER 1000000 /* bounds.NEVER */

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

/* max(v[low .. low + below]) (the Python tables' _range_table lookups). */
static int range_max(const int16_t *v, int low, int below) {
    int best = v[low];
    for (int r = low + 1; r <= low + below; r++)
        if (v[r] > best) best = v[r];
    return best;
}

/* team._chain: the longest chain of distinct riders standing on rows x - 1, x - 2, ...
 * in turn, rows[i] the riders (bits) that may stand on row x - 1 - i. */
static void chain_extend(const uint32_t *rows, int n, int depth, uint32_t used, int *best) {
    if (depth > *best) *best = depth;
    if (depth == n || *best == n) return;
    uint32_t free = rows[depth] & ~used;
    while (free) {
        uint32_t bit = free & (~free + 1);
        chain_extend(rows, n, depth + 1, used | bit, best);
        free ^= bit;
    }
}

static int chain(const uint32_t *rows, int n) {
    int best = 0;
    chain_extend(rows, n, 0, 0, &best);
    return best;
}

/* The riders (bits) whose interval holds row y, and those that may also ride a train
 * from it (trainable). */
static void standing(const mc_bounds *b, int dry, const int16_t *road, int n, int y, int skip,
                     uint32_t *stand, uint32_t *able) {
    uint32_t s = 0, a = 0;
    for (int g = 0; g < n; g++) {
        if (g == skip) continue;
        if (road[3 * g + 1] <= y && y <= road[3 * g + 2]) {
            s |= 1u << g;
            if (b->trainable[dry][road[3 * g]][y]) a |= 1u << g;
        }
    }
    *stand = s;
    if (able) *able = a;
}

/* team.train_front */
static int train_front(const mc_bounds *b, int dry, const int16_t *road, int n) {
    int rl = b->relay_limit, top_allowance = b->top_allowance;
    int top = road[2], low_min = road[1];
    for (int g = 1; g < n; g++) {
        top = imax(top, road[3 * g + 2]);
        low_min = imin(low_min, road[3 * g + 1]);
    }
    int bottom = imax(low_min, top - top_allowance - 2 * rl);
    int sheltered = imax(rl - 1, 0);
    int best = -1;
    uint32_t rows[8];
    for (int x = top; x >= bottom && x + top_allowance + rl > best; x--) {
        uint32_t here, ahead;
        standing(b, dry, road, n, x, -1, &here, NULL);
        standing(b, dry, road, n, x + 1, -1, &ahead, NULL);
        for (int g = 0; here >> g; g++) {
            if (!(here >> g & 1)) continue;
            int end = b->lead[dry][road[3 * g]][x];
            if (end + sheltered <= best) continue; /* no chain can beat the best */
            uint32_t not_g = ~(1u << g);
            for (int i = 1; i <= rl; i++) {
                uint32_t stand, able = 0;
                if (x - i >= bottom) standing(b, dry, road, n, x - i, -1, &stand, &able);
                rows[i - 1] = able & not_g;
            }
            int c = chain(rows, rl);
            best = imax(best, end - 1 + c);
            /* a rider that may stand on row x + 1 may shelter the founder (MC-5.4) */
            if (ahead & not_g) best = imax(best, end + imin(c, sheltered));
        }
    }
    return best;
}

/* team.rider_train_reach */
static int rider_train_reach(const mc_bounds *b, int dry, const int16_t *road, int n, int me,
                             int upto) {
    int t = road[3 * me], low = road[3 * me + 1], rl = b->relay_limit;
    uint32_t mine = 1u << me;
    int best = -1;
    uint32_t rows[MC_MAX_TEAM];
    for (int y = upto; y >= low; y--) {
        if (!b->trainable[dry][t][y]) continue;
        for (int k = 1; k <= n - 1; k++) {
            int x = y + k;
            uint32_t founders, ahead;
            standing(b, dry, road, n, x, me, &founders, NULL);
            for (int g = 0; founders >> g; g++) {
                if (!(founders >> g & 1)) continue;
                int end = b->lead[dry][road[3 * g]][x];
                if (k > rl) {
                    best = imax(best, end - 1); /* a wheel, behind the founder's end */
                } else if (end + k > best) {
                    uint32_t rest = ~(mine | 1u << g);
                    for (int i = 1; i < k; i++) {
                        uint32_t stand, able;
                        standing(b, dry, road, n, x - i, me, &stand, &able);
                        rows[i - 1] = able & rest;
                    }
                    if (chain(rows, k - 1) == k - 1) {
                        best = imax(best, end - 1 + k);
                        if (k < rl) {
                            standing(b, dry, road, n, x + 1, me, &ahead, NULL);
                            if (ahead & rest) best = imax(best, end + k);
                        }
                    }
                }
            }
        }
    }
    return best;
}

/* Bounds.step: the riders' intervals after one more round, into out (same order). */
static void step(const mc_bounds *b, int dry, const int16_t *riders, int n, int16_t *out) {
    int finish = b->finish, rl = b->relay_limit;
    int16_t road[3 * MC_MAX_TEAM];
    int m = 0, open = 0;
    for (int i = 0; i < n; i++) {
        if (riders[3 * i + 2] < finish) open = 1;
        if (riders[3 * i + 1] < finish) {
            road[3 * m] = riders[3 * i];
            road[3 * m + 1] = riders[3 * i + 1];
            road[3 * m + 2] = (int16_t)imin(riders[3 * i + 2], finish - 1);
            m++;
        }
    }
    memcpy(out, riders, (size_t)n * 3 * sizeof *out);
    if (!open) return;
    int others = imin(6, m - 1);
    int top = road[2];
    for (int g = 1; g < m; g++) top = imax(top, road[3 * g + 2]);
    int lead = 0;
    for (int g = 0; g < m; g++) {
        int t = road[3 * g], low = road[3 * g + 1], high = road[3 * g + 2];
        const int16_t *lead_row = b->lead[dry][t];
        if (high == top) {
            lead = imax(lead, lead_row[top] - 1);
            if (low < top) lead = imax(lead, range_max(lead_row, low, top - 1 - low));
        } else {
            lead = imax(lead, range_max(lead_row, low, high - low));
        }
    }
    int front = imin(lead + imin(rl, others), train_front(b, dry, road, m));
    int g = -1;
    for (int i = 0; i < n; i++) {
        int t = riders[3 * i], low = riders[3 * i + 1], high = riders[3 * i + 2];
        if (low < finish) g++;
        if (high >= finish) continue;
        int reach, below;
        if (high == top) {
            reach = b->own[dry][t][top] - 1;
            below = top - 1 - low; /* the part of the interval under the top row */
        } else {
            reach = 0;
            below = high - low;
        }
        if (below >= 0) {
            reach = imax(reach, range_max(b->own[dry][t], low, below));
            if (others) {
                int train = range_max(b->train[dry][t][others], low, below);
                if (train > front) train = front;
                if (train > reach) {
                    /* the founder is another rider, of its own type */
                    train = imin(train, rider_train_reach(b, dry, road, m, g, low + below));
                    if (train > reach) reach = train;
                }
            }
        }
        out[3 * i + 2] = (int16_t)(reach > high ? reach : high);
    }
}

/* Bounds.may_refill (MC-7.5) */
static int may_refill(const mc_bounds *b, const int16_t *riders, int n) {
    for (int i = 0; i < n; i++) {
        if (riders[3 * i] != MC_D) continue;
        for (int f = 0; f < b->n_feed_rows; f++)
            if (riders[3 * i + 1] < b->feed_rows[f] && b->feed_rows[f] <= riders[3 * i + 2])
                return 1;
    }
    return 0;
}

/* Bounds.own_reach */
static void own_reach(const mc_bounds *b, int dry, const int16_t *riders, int n, int *out) {
    int finish = b->finish, top = 0;
    for (int i = 0; i < n; i++)
        if (riders[3 * i + 1] < finish) top = imax(top, imin(riders[3 * i + 2], finish - 1));
    for (int i = 0; i < n; i++) {
        int t = riders[3 * i], low = riders[3 * i + 1], high = riders[3 * i + 2];
        if (high >= finish) {
            out[i] = high;
            continue;
        }
        int reach = high == top ? b->own[dry][t][top] - 1 : 0;
        int below = (high == top ? top - 1 : high) - low;
        if (below >= 0) reach = imax(reach, range_max(b->own[dry][t], low, below));
        out[i] = reach;
    }
}

/* Bounds.relays_across: of the riders whose own legs fall short of the line, one stays
 * on the road and the other, if any, crosses by the first relay behind it (MC-6.2: the
 * first rider of a group to cross closes it; MC-6.5; MC-9.3). */
static int relays_across(const mc_bounds *b, int dry, const int16_t *riders, int n,
                         const int *reach) {
    int finish = b->finish, shorts[MC_MAX_TEAM], k = 0, limit = b->relay_limit;
    for (int i = 0; i < n; i++)
        if (reach[i] < finish) shorts[k++] = i;
    if (k <= 1) return 1; /* that one stays on the road */
    if (k > 2) return 0;
    if (limit < 1) return 0; /* no relays (MC-6.5) */
    for (int o = 0; o < 2; o++) {
        int f = shorts[o], c = shorts[1 - o];
        int tf = riders[3 * f], tc = riders[3 * c];
        int lo = imax(riders[3 * f + 1], riders[3 * c + 1] + 1);
        int hi = imin(imin(riders[3 * f + 2], riders[3 * c + 2] + 1), finish - 2);
        for (int x = lo; x <= hi; x++) {
            if (!b->trainable[dry][tc][x - 1]) continue;
            int lead = b->lead[dry][tf][x];
            if (lead - 1 >= finish - 1) return 1;
            if (limit >= 2 && lead >= finish - 1)
                for (int g = 0; g < n; g++)
                    if (g != f && g != c && riders[3 * g + 1] <= x + 1 && x + 1 <= riders[3 * g + 2])
                        return 1;
        }
    }
    return 0;
}

/* Bounds.may_end: the last-round rule (MC-9.3), and the rider left on the road. */
static int may_end(const mc_bounds *b, int dry, const int16_t *riders, int n, int crossed,
                   int last_row, const int16_t *after) {
    int reach[MC_MAX_TEAM], own = 0;
    own_reach(b, dry, riders, n, reach);
    for (int i = 0; i < n; i++) own += reach[i] >= b->finish;
    if (crossed + own < SOLO_TARGET - 1) return 0;
    if (!relays_across(b, dry, riders, n, reach)) return 0;
    if (last_row >= 0) {
        int shorts = 0, first = -1;
        for (int i = 0; i < n; i++)
            if (reach[i] < last_row) {
                if (first < 0) first = i;
                shorts++;
            }
        if (shorts > 1) return 0;
        if (first >= 0 && after[3 * first + 2] < b->finish) return 0;
    }
    return 1;
}

int mc_rounds_needed(const mc_bounds *b, const int16_t *given, int n, int crossed, int dry,
                     int last_row, int ends_now) {
    int finish = b->finish, need = SOLO_TARGET - crossed;
    if (n < need) return NEVER; /* too few riders left on the road to ever end the game */
    if (n > MC_MAX_TEAM) return -1;
    int16_t riders[3 * MC_MAX_TEAM], after[3 * MC_MAX_TEAM];
    memcpy(riders, given, (size_t)n * 3 * sizeof *riders);
    int rounds = 0, end = ends_now;
    for (;;) {
        int across = 0, short_of = 0;
        for (int i = 0; i < n; i++) {
            across += riders[3 * i + 2] >= finish;
            if (last_row >= 0 && riders[3 * i + 2] < last_row) short_of = 1;
        }
        if (end && across >= need && !short_of) return rounds;
        step(b, dry, riders, n, after);
        int dry_after = dry && !may_refill(b, after, n);
        end = may_end(b, dry, riders, n, crossed, last_row, after);
        memcpy(riders, after, sizeof riders);
        dry = dry_after;
        /* every round takes some rider further; a guard all the same */
        if (++rounds > 4 * MC_BOUND_ROWS) return NEVER;
    }
}
