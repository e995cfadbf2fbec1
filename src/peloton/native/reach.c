/* The solo solver's round bound on a C race, for the round walk (walk.c): the part of
 * peloton.games.mindcycling.solver.bounds that reads the round in play, line for
 * line.  The later rounds (Bounds.rounds_needed) stay in Python: the walk asks for
 * them through a callback, once per distinct set of intervals.
 *
 * - mc_round_reach is bounds.round_reach: for every rider on the road, the row it
 *   stands on and the furthest row it may end this round on, from the round's own
 *   assessment (MC-4.2): its allowance (MC-5.2), +3 for an attack with a bottle held
 *   since the assessment in its own section (MC-7.2), or a train (MC-6): one row
 *   ahead of its leader's group's head per relay when its train place allows a relay
 *   (MC-6.5), behind its leader by a wheel otherwise (MC-6.4).  A rider that has
 *   ridden keeps its row.
 * - mc_may_end_this_round is bounds.may_end_this_round (the last-round rule, MC-9.3,
 *   with the founder of a crossing relay left on the road's last row, MC-6.5, MC-6.6),
 *   with its goal row for the rider left on the road (-1: none).
 * - mc_dry_after_round is Solver.dry_after_round (MC-7.5: no bottle, and no
 *   domestique still to ride may pass a feed zone's row).
 */
#include "mc.h"

#define BIT(i) ((uint64_t)1 << (i))
#define SOLO_TARGET 4 /* MC-9.3 */

static int own_section(int type, int sect) { /* MC-7.2 (riders.OWN_SECTIONS) */
    if (type == MC_D) return sect == MC_START || sect == MC_PLAIN;
    if (type == MC_S) return sect == MC_SPRINT;
    return sect == MC_MOUNTAIN;
}

/* rules.can_follow: MC-6.3 (b) and (c), fixed for the round. */
static int can_follow(const mc_race *r, int y) {
    return !(r->exhausted & BIT(y)) && !(r->type[y] == MC_S && r->section[y] == MC_MOUNTAIN);
}

/* A rider's own reach this round: its allowance, +3 if it may attack (MC-7.2). */
static int own_reach(const mc_race *r, int i) {
    int reach = (r->square_of[i] >> 5) + r->allowance[i];
    if ((r->held_bottle & BIT(i)) && (r->bottles & BIT(i)) && own_section(r->type[i], r->section[i]))
        reach += 3;
    return reach;
}

int mc_round_reach(const mc_race *r, int16_t *out) {
    int n = 0;
    for (int i = 0; i < r->n_riders; i++) {
        int sq = r->square_of[i];
        if (sq < 0) continue;
        int row = sq >> 5, reach = row;
        if (!(r->done & BIT(i))) {
            reach = own_reach(r, i);
            int x = r->leader[i];
            if (x >= 0 && can_follow(r, i)) {
                /* MC-6.5: the place fixed at the assessment decides, whatever the group */
                int relays = r->train_place[i] <= r->relay_limit + 1;
                for (int k = 1; x >= 0; k++) {
                    if (r->done & BIT(x)) {
                        int gi = r->group_of[x];
                        if (gi >= 0 && !r->g_closed[gi]) {
                            /* the k - 1 riders between join that group first, a row each */
                            int head = (r->g_head[gi] >> 5) + (relays ? k : 0);
                            if (head > reach) reach = head;
                        }
                        break;
                    }
                    if (r->square_of[x] < 0) break;
                    int ahead = (r->square_of[x] >> 5) + r->allowance[x] + (relays ? k : -1);
                    if (ahead > reach) reach = ahead;
                    if (!can_follow(r, x)) break;
                    x = r->leader[x];
                }
            }
        }
        out[3 * n] = (int16_t)r->type[i];
        out[3 * n + 1] = (int16_t)row;
        out[3 * n + 2] = (int16_t)(reach > row ? reach : row);
        n++;
    }
    return n;
}

int mc_may_end_this_round(const mc_course *c, const mc_race *r, int last_row) {
    int can = r->n_finished, shorts = 0;
    uint64_t mine = 0; /* on the road and not crossing on its own legs */
    for (int i = 0; i < r->n_riders; i++) {
        if (r->square_of[i] < 0) continue;
        if (r->done & BIT(i)) {
            /* with a goal row: a rider that has ridden short of it stays short */
            if (last_row >= 0 && (r->square_of[i] >> 5) < last_row) return 0;
            mine |= BIT(i);
            continue;
        }
        int reach = own_reach(r, i);
        if (reach >= c->finish) can++;
        else mine |= BIT(i);
        /* the rider left on the road ends on its own legs: one at most falls short */
        if (last_row >= 0 && reach < last_row) shorts++;
    }
    if (can < SOLO_TARGET - 1 || shorts > 1) return 0;
    if (can >= SOLO_TARGET) return 1;
    /* exactly three: a relay across behind the founder left on the road, whose normal
       move (or open group's head) is on the road's last row */
    for (int y = 0; y < r->n_riders; y++) {
        int f = r->leader[y];
        if (!(mine & BIT(y)) || (r->done & BIT(y)) || f < 0 || !(mine & BIT(f))) continue;
        if (!can_follow(r, y) || r->train_place[y] > r->relay_limit + 1) continue;
        if (r->done & BIT(f)) {
            int gi = r->group_of[f];
            if (gi >= 0 && !r->g_closed[gi] && (r->g_head[gi] >> 5) >= c->finish - 1) return 1;
        } else if ((r->square_of[f] >> 5) + r->allowance[f] >= c->finish - 1) {
            return 1;
        }
    }
    return 0;
}

int mc_dry_after_round(const mc_course *c, const mc_race *r, const int16_t *after, int n) {
    if (r->bottles) return 0;
    for (int k = 0; k < n; k++) {
        if (after[3 * k] != MC_D) continue;
        for (int f = 0; f < c->n_feed; f++) {
            int row = c->feed_sq[f] >> 5;
            if (after[3 * k + 1] < row && row <= after[3 * k + 2]) return 0;
        }
    }
    return 1;
}

/* solver.stay.surely_moving: whether rider i, still to move, may stay on its row
 * (MC-5.3: only when every square a step may enter holds a rider or a rock at its
 * turn).  `may_stay` holds the answers for the riders on further rows. */
static int rank_before(const mc_race *r, int a, int b) { /* MC-4.3: a before b */
    int ra = r->square_of[a] >> 5, rb = r->square_of[b] >> 5;
    return ra != rb ? ra > rb : r->square_of[a] < r->square_of[b];
}

static int follows(const mc_race *r, int m) {
    return !(r->done & BIT(m)) && r->leader[m] >= 0 && can_follow(r, m);
}

/* May m move before i: it, or a rider up its chain of leaders (not i), comes first
 * in the order (MC-4.3), pulling the rest by train priority (MC-4.4). */
static int may_move_before(const mc_race *r, int m, int i) {
    for (int x = m; x >= 0 && x != i;) {
        if (!(r->done & BIT(x)) && rank_before(r, x, i)) return 1;
        if (!follows(r, x)) return 0;
        x = r->leader[x];
        if (r->done & BIT(x)) return 1; /* its leader has just ridden: its turn may be now */
    }
    return 0;
}

static int fill(const uint64_t *fillers, int n, uint64_t used) {
    if (n == 0) return 1;
    for (uint64_t f = fillers[0] & ~used; f; f &= f - 1)
        if (fill(fillers + 1, n - 1, used | (f & -f))) return 1;
    return 0;
}

static int may_stay_now(const mc_course *c, const mc_race *r, int i, const int8_t *may_stay) {
    int row = r->square_of[i] >> 5, lane = r->square_of[i] & 31, ahead = row + 1;
    uint64_t fillers[3];
    int n = 0;
    for (int ln = lane - 1; ln <= lane + 1; ln++) {
        if (ln < 0 || ln >= c->lanes) continue;
        if (ahead < MC_ROWS && (c->rock[ahead] >> ln & 1)) continue;
        int j = ahead < MC_ROWS ? r->rider_at[ahead << 5 | ln] : -1;
        if (j >= 0 && ((r->done & BIT(j)) || may_stay[j])) continue; /* stays taken */
        uint64_t f = 0;
        for (int m = 0; m < r->n_riders; m++) {
            if (m == i || r->square_of[m] < 0 || (r->done & BIT(m))) continue;
            int from = r->square_of[m] >> 5, dist = ahead - from, side = ln - (r->square_of[m] & 31);
            if (from > row || !may_move_before(r, m, i)) continue;
            if (follows(r, m) || (dist <= r->allowance[m] + 3 && (side < 0 ? -side : side) <= dist))
                f |= BIT(m);
        }
        fillers[n++] = f;
    }
    return fill(fillers, n, 0);
}

void mc_lift_lows(const mc_course *c, const mc_race *r, int16_t *after, int n) {
    int8_t may_stay[MC_MAX_RIDERS] = {0};
    int todo[MC_MAX_RIDERS], k = 0;
    for (int i = 0; i < r->n_riders; i++)
        if (r->square_of[i] >= 0 && !(r->done & BIT(i))) todo[k++] = i;
    for (int a = 1; a < k; a++) /* further rows first, then lanes from the left */
        for (int b = a; b > 0 && rank_before(r, todo[b], todo[b - 1]); b--) {
            int t = todo[b];
            todo[b] = todo[b - 1];
            todo[b - 1] = t;
        }
    for (int a = 0; a < k; a++) may_stay[todo[a]] = (int8_t)may_stay_now(c, r, todo[a], may_stay);
    for (int i = 0, o = 0; i < r->n_riders && o < n; i++) {
        if (r->square_of[i] < 0) continue;
        if (!(r->done & BIT(i)) && !may_stay[i] && after[3 * o + 2] > after[3 * o + 1])
            after[3 * o + 1]++;
        o++;
    }
}
