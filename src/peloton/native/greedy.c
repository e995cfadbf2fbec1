/* The greedy move scores of heuristics.score_moves, operation for operation (the
 * same floating-point sums in the same order, so that ties break the same way).
 * See peloton/games/mindcycling/heuristics.py for what each term means. */
#include "mc.h"

static const int STEPS[3][4] = {{7, 7, 5, 5}, {5, 5, 7, 3}, {5, 5, 3, 7}}; /* MC-2.1 */
#define ROWS_PER_ROUND 6.0
#define TRAIN_DEPTH 3
#define BIT(i) ((uint64_t)1 << (i))

typedef struct {
    const mc_course *c;
    const mc_race *r;
    const mc_weights *w;
    double memo[MC_MAX_RIDERS], relay_memo[MC_MAX_RIDERS];
    uint64_t in_memo, in_relay_memo;
    int n_lines, line_last[2], line_medal[2]; /* section lines still to be won */
    int n_ahead, ahead[2];                    /* ... at or beyond the mover's row */
    int follower_relays;
} scorer;

/* The rider on sq's shelter square (MC-5.5), -1 if none or off the road. */
static inline int shelter_of(const scorer *s, int sq) {
    int lane = (sq & 31) + s->r->shelter, row = (sq >> 5) + 1;
    if (lane < 0 || lane >= s->c->lanes || row >= MC_ROWS) return -1;
    return s->r->rider_at[row * 32 + lane];
}

/* Whether a rider on sq would have a train place that may relay (MC-6.1, MC-6.5). */
static int relay_place(const scorer *s, int sq) {
    int ahead = s->r->relay_limit;
    if (ahead >= 7) return 1;
    int x = shelter_of(s, sq);
    while (x >= 0) {
        if (!ahead) return 0;
        ahead--;
        x = shelter_of(s, s->r->square_of[x]);
    }
    return 1;
}

static double leader_move(scorer *s, int rid, int depth, int relay);

/* Rows rid standing on sq may expect to ride next round (MC-4.2, MC-5.4/5.5, MC-6). */
static double next_round(scorer *s, int rid, int sq, int bottle, int depth, int relay) {
    int section = s->c->section[sq >> 5], kind = s->r->type[rid];
    int alone = STEPS[kind][section];
    int tired = kind == MC_D && !bottle;
    if (tired) alone -= 1;
    int leader = shelter_of(s, sq);
    if (leader < 0 || leader == rid) return alone - 1.0;
    if (tired || (kind == MC_S && section == MC_MOUNTAIN) || depth >= TRAIN_DEPTH) return (double)alone;
    double carried = leader_move(s, leader, depth + 1, 0);
    if (relay && relay_place(s, sq)) {
        double relayed = leader_move(s, leader, depth + 1, 1) + 2;
        if (relayed > carried) carried = relayed;
    }
    double gain = carried - alone;
    return gain > 0 ? alone + s->w->train_trust * gain : (double)alone;
}

static double leader_move(scorer *s, int rid, int depth, int relay) {
    double *memo = relay ? s->relay_memo : s->memo;
    uint64_t *known = relay ? &s->in_relay_memo : &s->in_memo;
    if (!(*known & BIT(rid))) {
        memo[rid] = next_round(s, rid, s->r->square_of[rid], (s->r->bottles & BIT(rid)) != 0, depth, relay);
        *known |= BIT(rid);
    }
    return memo[rid];
}

/* What holding a bottle at row is worth to rid (MC-7.2, MC-7.4). */
static double bottle_value(const scorer *s, int rid, int row) {
    int kind = s->r->type[rid];
    if (kind == MC_D) {
        int horizon = s->c->finish - row;
        for (int i = 0; i < s->c->n_feed_rows; i++)
            if (s->c->feed_rows[i] > row) { horizon = s->c->feed_rows[i] - row; break; }
        double v = horizon / ROWS_PER_ROUND;
        return s->w->bottle_round * (v > 0.0 ? v : 0.0);
    }
    int last = kind == MC_S ? s->c->last_sprint : s->c->last_mountain;
    if (last >= 0 && row <= last) return s->w->attack_bottle;
    return 0.0;
}

/* Whether a feed square lies within reach forward steps of sq. */
static int feed_within(const scorer *s, int sq, int reach) {
    int row = sq >> 5, lane = sq & 31, top = s->c->finish + 1;
    int i = row + reach + 1 < top ? row + reach + 1 : top;
    if (s->c->feed_before[i] == s->c->feed_before[row + 1]) return 0;
    for (int k = 0; k < s->c->n_feed; k++) {
        int f = s->c->feed_sq[k], ahead = (f >> 5) - row, d = (f & 31) - lane;
        if (d < 0) d = -d;
        if (0 < ahead && ahead <= reach && d <= ahead) return 1;
    }
    return 0;
}

/* MC-7.5: whether some path from start to end enters a feed square. */
static int feed_on_path(const scorer *s, int start, int end) {
    const mc_course *c = s->c;
    int first = (start >> 5) + 1, last = end >> 5;
    if (c->feed_before[last + 1] == c->feed_before[first]) return 0;
    unsigned full = (1u << c->lanes) - 1, reach = 1u << (start & 31), fed = 0;
    for (int row = first; row <= last; row++) {
        reach = (reach | reach << 1 | reach >> 1) & full & ~(unsigned)s->r->blocked[row];
        fed = ((fed | fed << 1 | fed >> 1) & reach) | (reach & c->feed[row]);
    }
    return fed >> (end & 31) & 1;
}

/* Score of rid standing on sq with or without a bottle. */
static double destination(scorer *s, int rid, int sq, int bottle) {
    double score = (sq >> 5) + s->w->next_round * next_round(s, rid, sq, bottle, 0, 1);
    if (bottle) score += bottle_value(s, rid, sq >> 5);
    else if (s->r->type[rid] == MC_D && feed_within(s, sq, STEPS[MC_D][MC_PLAIN] - 2)) score += s->w->feed_next;
    return score;
}

/* The teammate linked behind rid who may wheel or relay after it (MC-4.4). */
static int follower_of(const scorer *s, int rid, int start) {
    const mc_race *r = s->r;
    int lane = (start & 31) - r->shelter, row = (start >> 5) - 1;
    if (lane < 0 || lane >= s->c->lanes || row < 0) return -1;
    int y = r->rider_at[row * 32 + lane];
    if (y < 0 || r->team[y] != r->team[rid]) return -1;
    if ((r->done & BIT(y)) || r->round == 0 || !(r->assessed & BIT(y))) return -1;
    if (r->leader[y] != rid || (r->exhausted & BIT(y))) return -1;
    if (r->type[y] == MC_S && r->section[y] == MC_MOUNTAIN) return -1;
    return y;
}

static double race_move(scorer *s, int32_t move, int start, int holds, int follower) {
    const mc_weights *w = s->w;
    int kind = MC_KIND(move), rid = MC_RIDER(move), dest = MC_SQUARE(move);
    int srow = start >> 5, finish = s->c->finish;
    if (kind == MC_GIVE || kind == MC_STAY) return 0.0;
    if (dest == MC_FINISH_SQ) {
        double bonus = 0.0; /* medal_bonus(srow, finish, True): MC-8.3 */
        if (!s->r->solo) { /* none in the solo version, where only rounds count (MC-9.4) */
            for (int i = 0; i < s->n_lines; i++)
                if (srow <= s->line_last[i] && s->line_last[i] < finish) bonus += w->medal;
            if (!s->r->n_finished) bonus += w->medal;
        }
        double score = w->finish + bonus + (finish - srow) * 0.01;
        return kind == MC_ATTACK ? score - 0.001 : score; /* keep the bottle-free move */
    }
    int sq = dest, row = sq >> 5;
    int bottle = holds && kind != MC_ATTACK;
    if (!bottle && s->r->type[rid] == MC_D && (kind == MC_MOVE || kind == MC_ATTACK)) {
        if (s->c->feed_before[row + 1] != s->c->feed_before[srow + 1] && feed_on_path(s, start, sq))
            bottle = 1; /* MC-7.5 */
    }
    double bonus = 0.0;
    for (int i = 0; i < s->n_ahead; i++)
        if (s->ahead[i] < row) bonus += w->medal;
    double score = destination(s, rid, sq, bottle) + bonus;
    if (follower >= 0) {
        if (kind == MC_ATTACK) score -= w->follower;
        else if (kind == MC_RELAY && !s->follower_relays) score -= w->blocked_wheel; /* MC-6.4 */
        else if (s->follower_relays && shelter_of(s, sq) < 0) score += w->relay_room;
    }
    return score;
}

/* A gift (MC-7.1): the best move left to the giver without its bottle, plus what
 * the bottle is worth to the teammate behind. */
static double give(scorer *s, int32_t move, const int32_t *moves, int n, int start, int follower) {
    const mc_race *r = s->r;
    int mate = MC_TARGET(move);
    double after = 0.0;
    int any = 0;
    for (int i = 0; i < n; i++) {
        int k = MC_KIND(moves[i]);
        if (k != MC_MOVE && k != MC_WHEEL && k != MC_RELAY && k != MC_STAY) continue;
        double v = race_move(s, moves[i], start, 0, follower);
        if (!any || v > after) after = v;
        any = 1;
    }
    int type = r->type[mate];
    int medal = type == MC_S ? MC_SPRINTER : type == MC_C ? MC_CLIMBER : -1;
    int open = 0;
    for (int i = 0; i < s->n_lines; i++)
        if (s->line_medal[i] == medal) open = 1;
    if (medal < 0 || !open) return after - 1.0; /* the line is already won (or absent) */
    int last = type == MC_S ? s->c->last_sprint : s->c->last_mountain;
    int reach = type == MC_S ? s->w->give_range : s->w->give_range_climber;
    if (last < 0) return after - 1.0;
    int to_go = last + 1 - (r->square_of[mate] >> 5);
    if (!(0 < to_go && to_go <= reach)) return after - 1.0;
    return after + s->w->give;
}

/* heuristics.score_moves for moves legal in r (all of the player to act). */
void mc_score_moves(const mc_course *c, const mc_race *r, const mc_weights *w,
                    const int32_t *moves, int n, double *scores) {
    scorer s;
    s.c = c;
    s.r = r;
    s.w = w;
    s.in_memo = s.in_relay_memo = 0;
    s.n_lines = 0;
    for (int i = 0; i < c->n_lines; i++)
        if (r->medal[c->line_medal[i]] < 0) {
            s.line_last[s.n_lines] = c->line_last[i];
            s.line_medal[s.n_lines++] = c->line_medal[i];
        }
    s.n_ahead = 0;
    s.follower_relays = 0;
    if (n <= 0) return;
    if (MC_KIND(moves[0]) == MC_PLACE) { /* setup (MC-3) */
        for (int i = 0; i < n; i++) {
            int rid = MC_RIDER(moves[i]), type = r->type[rid];
            double order = type == MC_D ? w->setup_d : type == MC_S ? w->setup_s : w->setup_c;
            scores[i] = destination(&s, rid, MC_SQUARE(moves[i]), (r->bottles & BIT(rid)) != 0) + order;
        }
        return;
    }
    int rid = MC_RIDER(moves[0]), start = r->square_of[rid];
    int follower = follower_of(&s, rid, start);
    if (follower >= 0) {
        int place = r->train_place[follower];
        s.follower_relays = place != 0 && place <= r->relay_limit + 1; /* MC-6.5 */
    }
    int holds = (r->bottles & BIT(rid)) != 0, srow = start >> 5;
    /* The lines still to win at or beyond the mover's row: a move that reaches past
     * one wins its medal (none in the solo version, MC-9.4). */
    if (!r->solo)
        for (int i = 0; i < s.n_lines; i++)
            if (srow <= s.line_last[i]) s.ahead[s.n_ahead++] = s.line_last[i];
    for (int i = 0; i < n; i++) scores[i] = race_move(&s, moves[i], start, holds, follower);
    if (holds) /* a gift is legal only to a rider holding a bottle (MC-7.1) */
        for (int i = 0; i < n; i++)
            if (MC_KIND(moves[i]) == MC_GIVE) scores[i] = give(&s, moves[i], moves, n, start, follower);
}
