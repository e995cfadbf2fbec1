/* The rules of Mind Cycling on flat arrays: the round's assessment (MC-4.2, MC-4.3,
 * MC-6.1), legal moves in exactly the Python engine's order (MC-3, MC-5, MC-6, MC-7),
 * their effects, the turn order (MC-4.4, MC-4.5) and the end (MC-8.5, MC-9.3).
 * Mirrors peloton/games/mindcycling/rules.py and state.py function by function. */
#include <string.h>
#include "mc.h"

/* MC-2.1: a type's maximum steps by section (start rides as plain). */
static const int STEPS[3][4] = {
    {7, 7, 5, 5}, /* domestique */
    {5, 5, 7, 3}, /* sprinter */
    {5, 5, 3, 7}, /* climber */
};
/* MC-8.2: points for places 1 to 12. */
#define SCORING_PLACES 12 /* MC-8.5 */
#define SOLO_TARGET 4     /* MC-9.3 */
#define BIT(i) ((uint64_t)1 << (i))

static inline int at(const mc_race *r, int row, int lane) {
    return r->rider_at[row * 32 + lane];
}

/* The rider on the shelter square of `sq` (MC-5.5), -1 if none or off the road. */
static inline int shelter_rider(const mc_course *c, const mc_race *r, int sq) {
    int lane = (sq & 31) + r->shelter, row = (sq >> 5) + 1;
    if (lane < 0 || lane >= c->lanes || row >= MC_ROWS) return -1;
    return at(r, row, lane);
}

void mc_init_race(mc_race *r) {
    memset(r, 0, sizeof *r);
    memset(r->square_of, -1, sizeof r->square_of);
    memset(r->rider_at, -1, sizeof r->rider_at);
    memset(r->medal, -1, sizeof r->medal);
    memset(r->group_of, -1, sizeof r->group_of);
    memset(r->leader, -1, sizeof r->leader);
    memset(r->follower, -1, sizeof r->follower);
    r->current = -1;
}

void mc_put(mc_race *r, int rider, int sq) {
    r->square_of[rider] = (int16_t)sq;
    r->rider_at[sq] = (int8_t)rider;
    r->blocked[sq >> 5] |= (uint16_t)(1u << (sq & 31));
    r->n_on_road++;
}

static void award(mc_race *r, int slot, int who) {
    r->medal[slot] = (int8_t)who;
    r->medal_order[r->n_medals++] = (int8_t)slot;
}

/* ------------------------------------------------------------ the round */

void mc_assess(const mc_course *c, mc_race *r) {
    /* MC-4.2, MC-4.3, MC-6.1 */
    int n = 0;
    r->assessed = r->against_wind = r->exhausted = 0;
    memset(r->leader, -1, sizeof r->leader);
    memset(r->follower, -1, sizeof r->follower);
    memset(r->train_place, 0, sizeof r->train_place);
    for (int i = 0; i < r->n_riders; i++) {
        int sq = r->square_of[i];
        if (sq < 0) continue;
        int sect = c->section[sq >> 5];
        int a = STEPS[r->type[i]][sect];
        int x = shelter_rider(c, r, sq); /* the shelter square (MC-5.5) */
        if (x < 0) {
            r->against_wind |= BIT(i);
            a -= 1;
        } else {
            r->leader[i] = (int8_t)x;
            r->follower[x] = (int8_t)i;
        }
        if (r->type[i] == MC_D && !(r->bottles & BIT(i))) { /* MC-7.4 */
            r->exhausted |= BIT(i);
            a -= 1;
        }
        r->allowance[i] = (int8_t)a;
        r->section[i] = (uint8_t)sect;
        r->assessed |= BIT(i);
        /* MC-4.3: furthest row first, then the lower lane (insertion sort: few riders) */
        int j = n++;
        while (j > 0) {
            int o = r->square_of[r->order[j - 1]];
            if ((o >> 5) > (sq >> 5) || ((o >> 5) == (sq >> 5) && (o & 31) < (sq & 31))) break;
            r->order[j] = r->order[j - 1];
            j--;
        }
        r->order[j] = (int8_t)i;
    }
    r->n_order = n;
    r->held_bottle = r->bottles & r->assessed; /* MC-7.2 */
    /* MC-6.1: train places, counted down each train from its front rider. */
    for (int i = 0; i < r->n_riders; i++) {
        if (r->follower[i] < 0 || r->leader[i] >= 0) continue;
        int place = 1;
        r->train_place[i] = 1;
        for (int y = r->follower[i]; y >= 0; y = r->follower[y]) r->train_place[y] = (int8_t)++place;
    }
    r->next_in_order = 0;
    r->done = 0;
    r->gave = 0;
    r->n_groups = 0;
    memset(r->group_of, -1, sizeof r->group_of);
    r->current = n ? r->order[0] : -1;
}

/* MC-6.3 (b)-(d) for y linked to x: may y wheel or relay behind x? */
static int may_follow(const mc_race *r, int y, int x) {
    if (r->exhausted & BIT(y)) return 0;                                 /* (c) */
    if (r->type[y] == MC_S && r->section[y] == MC_MOUNTAIN) return 0;   /* (b) */
    int gi = r->group_of[x];                                             /* (d) */
    return gi >= 0 && !r->g_closed[gi];
}

/* MC-9.3: the fourth rider is across; any game ends once nobody is on the road. */
static int solo_done(const mc_race *r) {
    return (r->solo && r->n_finished >= SOLO_TARGET) || r->n_on_road == 0;
}

/* MC-8.5: every rider across, or twelve across and every section medal given. */
static int race_decided(const mc_course *c, const mc_race *r) {
    if (r->n_on_road == 0) return 1;
    if (r->n_finished < SCORING_PLACES) return 0;
    for (int i = 0; i < c->n_lines; i++)
        if (r->medal[c->line_medal[i]] < 0) return 0;
    return 1;
}

int mc_team_points(const mc_race *r, int *points) {
    for (int t = 0; t < r->n_teams; t++) points[t] = 0;
    for (int i = 0; i < r->n_finished && i < SCORING_PLACES; i++)
        points[r->team[(int)r->finished[i]]] += SCORING_PLACES - i; /* MC-8.2 */
    return r->n_teams;
}

static int best_place(const mc_race *r, int team) {
    for (int i = 0; i < r->n_finished; i++)
        if (r->team[(int)r->finished[i]] == team) return i;
    return r->n_finished + 1000;
}

/* MC-8.3 Best Team: most points; ties to the better best-placed rider, then seat. */
int mc_best_team(const mc_race *r) {
    int points[MC_MAX_TEAMS], best = 0;
    mc_team_points(r, points);
    for (int t = 1; t < r->n_teams; t++) {
        if (points[t] > points[best] ||
            (points[t] == points[best] && best_place(r, t) < best_place(r, best)))
            best = t;
    }
    return best;
}

/* MC-8.4: most medals; then the Best Team holder, points, the better best-placed rider, seat. */
int mc_trophy(const mc_race *r) {
    int count[MC_MAX_TEAMS] = {0}, points[MC_MAX_TEAMS], best = 0;
    for (int k = 0; k < 4; k++) {
        int h = r->medal[k];
        if (h < 0) continue;
        count[k == MC_TEAM ? h : r->team[h]]++;
    }
    mc_team_points(r, points);
    for (int t = 1; t < r->n_teams; t++) {
        int a = -count[t], b = -count[best];
        if (a != b) { if (a < b) best = t; continue; }
        a = t != r->medal[MC_TEAM]; b = best != r->medal[MC_TEAM];
        if (a != b) { if (a < b) best = t; continue; }
        if (points[t] != points[best]) { if (points[t] > points[best]) best = t; continue; }
        if (best_place(r, t) < best_place(r, best)) best = t;
    }
    return best;
}

/* The game is over: Best Team is awarded (MC-8.3) if anyone crossed. */
static void finish_game(mc_race *r) {
    r->over = 1;
    r->current = -1;
    if (r->n_finished) award(r, MC_TEAM, mc_best_team(r));
}

/* ------------------------------------------------------------ generation */

/* MC-3.1: the team to place a rider (round the table). */
static int placing_team(const mc_race *r) { return r->n_on_road % r->n_teams; }

static int placements(const mc_course *c, const mc_race *r, int32_t *out, int cap) {
    /* Free start-zone squares for the team (MC-3.1, MC-3.2, MC-9.2), front rows first. */
    int team = placing_team(r), last = c->start_rows;
    int squares[MC_ROWS * 9], nfree = 0, nclear = 0;
    int clear[MC_ROWS * 9];
    for (int row = last; row >= (r->solo ? last : 1); row--) {
        for (int lane = 0; lane < c->lanes; lane++) {
            if (at(r, row, lane) >= 0) continue;
            int sq = row << 5 | lane;
            squares[nfree++] = sq;
            if (r->solo) continue;
            int ahead = at(r, row + 1, lane), behind = row > 0 ? at(r, row - 1, lane) : -1;
            if (!((ahead >= 0 && r->team[ahead] == team) || (behind >= 0 && r->team[behind] == team)))
                clear[nclear++] = sq;
        }
    }
    const int *use = squares;
    int count = nfree;
    if (!r->solo && nclear) { use = clear; count = nclear; } /* MC-3.2 [decision]: lifted when nothing respects it */
    int n = 0;
    for (int k = 0; k < r->team_size; k++) {
        int rid = r->team_riders[team][k];
        if (!(r->unplaced & BIT(rid))) continue;
        for (int i = 0; i < count; i++) {
            if (n >= cap) return -1;
            out[n++] = MC_ENCODE(MC_PLACE, rid, 0, use[i]);
        }
    }
    return n;
}

#define PUSH(m) do { if (n >= cap) return -1; out[n++] = (m); } while (0)

static int own_section(int type, int sect) { /* MC-7.2 */
    if (type == MC_D) return sect == MC_START || sect == MC_PLAIN;
    if (type == MC_S) return sect == MC_SPRINT;
    return sect == MC_MOUNTAIN;
}

static int is_free(const mc_race *r, int sq) { return !(r->blocked[sq >> 5] >> (sq & 31) & 1); }

static int race_moves(const mc_course *c, const mc_race *r, int32_t *out, int cap) {
    int rid = r->current, n = 0;
    int sq = r->square_of[rid], row = sq >> 5, finish = c->finish;
    uint64_t me = BIT(rid);

    /* MC-7.1: a bottle for the teammate directly behind, before moving. */
    if (!r->gave && (r->bottles & me) && row >= 1) {
        int mate = at(r, row - 1, sq & 31);
        if (mate >= 0 && r->team[mate] == r->team[rid] && !(r->bottles & BIT(mate)))
            PUSH(MC_ENCODE(MC_GIVE, rid, mate, 0));
    }
    int gives = n;

    /* MC-5: normal moves within the allowance; MC-7.2: attacks within allowance + 3. */
    int allowance = r->allowance[rid];
    int attack = (r->held_bottle & me) && (r->bottles & me) && own_section(r->type[rid], r->section[rid]);
    int reach = row + allowance, top = attack ? reach + 3 : reach;
    int last = top < finish ? top : finish - 1;
    unsigned full = (1u << c->lanes) - 1, frontier = 1u << (sq & 31);
    int broke = 0;
    for (int rr = row + 1; rr <= last; rr++) {
        /* MC-5.1: a step reaches the free squares of the next row, one lane either side */
        frontier = (frontier | frontier << 1 | frontier >> 1) & full & ~(unsigned)r->blocked[rr];
        if (!frontier) { broke = 1; break; }
        if (rr <= reach)
            for (int lane = 0; lane < c->lanes; lane++)
                if (frontier >> lane & 1) PUSH(MC_ENCODE(MC_MOVE, rid, 0, rr << 5 | lane));
        if (attack)
            for (int lane = 0; lane < c->lanes; lane++)
                if (frontier >> lane & 1) PUSH(MC_ENCODE(MC_ATTACK, rid, 0, rr << 5 | lane));
    }
    if (!broke && top >= finish) { /* MC-5.6: a path that reaches the last row can step across */
        if (finish <= reach) PUSH(MC_ENCODE(MC_MOVE, rid, 0, MC_FINISH_SQ));
        if (attack) PUSH(MC_ENCODE(MC_ATTACK, rid, 0, MC_FINISH_SQ));
    }

    /* MC-6: wheel (MC-6.4) and relay (MC-6.5, MC-6.6) behind the linked rider. */
    int x = r->leader[rid];
    if (x >= 0 && may_follow(r, rid, x)) {
        int dl = r->shelter, here = r->square_of[x];
        int target = here - 32 - dl, lane = (here & 31) - dl;
        /* the wheel: directly behind x where it stands now */
        if (lane >= 0 && lane < c->lanes && (target >> 5) >= 1 && is_free(r, target))
            PUSH(MC_ENCODE(MC_WHEEL, rid, 0, (target >> 5) << 5 | lane));
        /* the relay: in front of the head of x's group, train places 2 .. limit + 1 */
        if (r->train_place[rid] <= r->relay_limit + 1) {
            int head = r->g_head[(int)r->group_of[x]];
            lane = (head & 31) + dl;
            target = head + 32 + dl;
            if (lane >= 0 && lane < c->lanes) {
                if ((target >> 5) >= finish) PUSH(MC_ENCODE(MC_RELAY, rid, 0, MC_FINISH_SQ));
                else if (is_free(r, target)) PUSH(MC_ENCODE(MC_RELAY, rid, 0, (target >> 5) << 5 | lane));
            }
        }
    }
    if (n == gives) PUSH(MC_ENCODE(MC_STAY, rid, 0, 0)); /* MC-5.3 */
    return n;
}

int mc_legal(const mc_course *c, const mc_race *r, int32_t *out, int cap) {
    if (r->over) return 0;
    if (r->round == 0) return placements(c, r, out, cap);
    return race_moves(c, r, out, cap);
}

/* ------------------------------------------------------------ effects */

/* MC-7.5: does some path from start to end enter a feed square? */
static int feed_on_path(const mc_course *c, const mc_race *r, int start, int end) {
    int first = (start >> 5) + 1, last = end >> 5;
    if (c->feed_before[last + 1] == c->feed_before[first]) return 0;
    unsigned full = (1u << c->lanes) - 1, reach = 1u << (start & 31), fed = 0;
    for (int row = first; row <= last; row++) {
        reach = (reach | reach << 1 | reach >> 1) & full & ~(unsigned)r->blocked[row];
        fed = ((fed | fed << 1 | fed >> 1) & reach) | (reach & c->feed[row]);
    }
    return fed >> (end & 31) & 1;
}

/* Whether the mover's turn is over (a gift leaves the same rider to move, MC-7.1). */
static int apply(const mc_course *c, mc_race *r, int32_t move) {
    int kind = MC_KIND(move), rid = MC_RIDER(move), dest = MC_SQUARE(move);
    uint64_t me = BIT(rid);
    if (kind == MC_GIVE) { /* MC-7.1: no move is spent */
        r->bottles = (r->bottles & ~me) | BIT(MC_TARGET(move));
        r->gave = 1;
        return 0;
    }
    if (kind == MC_STAY) return 1;
    if (kind == MC_PLACE) { /* MC-3.1 */
        r->unplaced &= ~me;
        mc_put(r, rid, dest);
        return 1;
    }
    int start = r->square_of[rid], srow = start >> 5;
    int crossed = dest == MC_FINISH_SQ, end = crossed ? -1 : dest;
    int alone = kind == MC_MOVE || kind == MC_ATTACK; /* on its own legs, not on a train */
    if (kind == MC_ATTACK) r->bottles &= ~me;        /* thrown away before riding (MC-7.2, MC-7.5) */
    if (alone && !crossed && r->type[rid] == MC_D && !(r->bottles & me) &&
        feed_on_path(c, r, start, end))
        r->bottles |= me;
    r->rider_at[start] = -1;
    r->blocked[srow] &= (uint16_t)~(1u << (start & 31));
    int after = crossed ? c->finish : end >> 5;
    for (int i = 0; i < c->n_lines; i++) { /* MC-8.3: first across a section's last row */
        int last = c->line_last[i];
        if (srow <= last && last < after && r->medal[c->line_medal[i]] < 0)
            award(r, c->line_medal[i], rid);
    }
    if (crossed) { /* MC-8.1: the rider leaves the road and takes the next place */
        r->square_of[rid] = -1;
        r->n_on_road--;
        r->bottles &= ~me;
        r->finished[r->n_finished++] = (int8_t)rid;
        if (r->n_finished == 1) award(r, MC_CYCLIST, rid);
    } else {
        r->square_of[rid] = (int16_t)end;
        r->rider_at[end] = (int8_t)rid;
        r->blocked[after] |= (uint16_t)(1u << (end & 31));
    }
    if (alone) { /* MC-6.2: a new group; an attack's is closed */
        int gi = r->n_groups++;
        r->g_head[gi] = (int16_t)end;
        r->g_size[gi] = 1;
        r->g_closed[gi] = kind == MC_ATTACK || crossed;
        r->group_of[rid] = (int8_t)gi;
    } else {
        int gi = r->group_of[(int)r->leader[rid]];
        r->g_size[gi]++;
        if (kind == MC_RELAY) { /* the relaying rider is the group's new head */
            r->g_head[gi] = (int16_t)end;
            if (crossed) r->g_closed[gi] = 1;
        }
        r->group_of[rid] = (int8_t)gi;
    }
    return 1;
}

/* Mark rid's turn done and hand the turn on (MC-4.4, MC-4.5, MC-8.5). */
static void end_turn(const mc_course *c, mc_race *r, int rid) {
    r->done |= BIT(rid);
    r->gave = 0;
    if ((r->n_finished >= SCORING_PLACES || r->n_on_road == 0) && !r->solo && race_decided(c, r)) {
        finish_game(r);
        return;
    }
    /* MC-4.4: the rider linked to rid takes its turn at once if it may follow. */
    int y = r->follower[rid];
    if (y >= 0 && !(r->done & BIT(y)) && may_follow(r, y, rid)) {
        r->current = y;
        return;
    }
    int i = r->next_in_order;
    while (i < r->n_order && (r->done & BIT(r->order[i]))) i++;
    r->next_in_order = i;
    if (i < r->n_order) {
        r->current = r->order[i];
        return;
    }
    if (solo_done(r)) { /* MC-9.3: a solo game ends with the round of its fourth rider */
        finish_game(r);
        return;
    }
    r->round++;
    mc_assess(c, r);
}

/* State.play for a legal move (not checked here). */
void mc_play(const mc_course *c, mc_race *r, int32_t move) {
    if (r->round) {
        if (apply(c, r, move)) end_turn(c, r, MC_RIDER(move));
    } else {
        apply(c, r, move); /* a placement (MC-3.1) */
        if (r->n_on_road == r->n_riders) { /* MC-3.3 */
            r->round = 1;
            mc_assess(c, r);
        }
    }
}
