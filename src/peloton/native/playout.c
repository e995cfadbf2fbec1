/* Whole playouts in C: uniformly random ones (one or a batch from one position) and
 * greedy ones (heuristics.greedy_move for MCTS, GreedyBot's choice for matches). */
#include <string.h>
#include "mc.h"

/* Rng.choice: items[int(random() * len(items))]. */
static inline int pick(mc_rng *g, int n) { return (int)(mc_random(g) * n); }

/* Play uniformly random legal moves until the game is over (or max_moves played);
 * the number of moves played, -1 if `buf` (cap moves) was too small. */
int mc_random_playout(const mc_course *c, mc_race *r, mc_rng *g, int32_t *buf, int cap, int max_moves) {
    int played = 0;
    while (!r->over && played < max_moves) {
        int n = mc_legal(c, r, buf, cap);
        if (n <= 0) return -1;
        mc_play(c, r, buf[pick(g, n)]);
        played++;
    }
    return played;
}

/* `games` random playouts from `start`, game i seeded with seed + i; their totals. */
int mc_batch_random(const mc_course *c, const mc_race *start, int games, uint32_t seed,
                    int32_t *buf, int cap, mc_stats *stats) {
    mc_race r;
    mc_rng g;
    for (int i = 0; i < games; i++) {
        memcpy(&r, start, sizeof r);
        mc_seed(&g, seed + (uint32_t)i);
        int played = mc_random_playout(c, &r, &g, buf, cap, 1 << 30);
        if (played < 0) return -1;
        stats->games++;
        stats->moves += played;
        stats->rounds += r.round;
        int points[MC_MAX_TEAMS];
        mc_team_points(&r, points);
        for (int t = 0; t < r.n_teams; t++) stats->points[t] += points[t];
        for (int k = 0; k < 4; k++) {
            int h = r.medal[k];
            if (h >= 0) stats->medals[k == MC_TEAM ? h : r.team[h]]++;
        }
        if (!r.solo && r.n_finished) stats->trophies[mc_trophy(&r)]++;
    }
    return 0;
}

/* Greedy moves until the game is over (or max_moves played).  The team to act draws
 * from rngs[rng_of_team[team]].  always_draw: heuristics.greedy_move (one draw per
 * move, even with one candidate); else GreedyBot.choose (a draw only between ties).
 * `played` (if not NULL) receives the moves.  Returns the number played, -1 if a
 * buffer was too small. */
int mc_greedy_playout(const mc_course *c, mc_race *r, const mc_weights *w, mc_rng *rngs,
                      const int8_t *rng_of_team, int always_draw, double tolerance,
                      int32_t *buf, int cap, double *scores, int32_t *played, int max_moves) {
    int count = 0;
    while (!r->over && count < max_moves) {
        int n = mc_legal(c, r, buf, cap);
        if (n <= 0) return -1;
        int team = r->round ? r->team[r->current] : r->n_on_road % r->n_teams;
        mc_rng *g = &rngs[(int)rng_of_team[team]];
        int32_t move;
        if (n == 1) {
            move = buf[0];
            if (always_draw) pick(g, 1);
        } else {
            mc_score_moves(c, r, w, buf, n, scores);
            double top = scores[0];
            for (int i = 1; i < n; i++)
                if (scores[i] > top) top = scores[i];
            int best = 0;
            for (int i = 0; i < n; i++)
                if (scores[i] >= top - tolerance) buf[best++] = buf[i];
            move = (best == 1 && !always_draw) ? buf[0] : buf[pick(g, best)];
        }
        if (played) played[count] = move;
        mc_play(c, r, move);
        count++;
    }
    return count;
}

/* mc_legal, each move written as a dense index into a per-game table of Python Moves:
 * (rider * 8 + kind) * slots + slot, the slot being row * lanes + lane for a square,
 * finish * lanes across the line, the target rider of a gift, 0 for a stay. */
int mc_legal_index(const mc_course *c, const mc_race *r, int32_t *out, int cap, int32_t slots) {
    int n = mc_legal(c, r, out, cap);
    for (int i = 0; i < n; i++) {
        int32_t m = out[i];
        int kind = MC_KIND(m), sq = MC_SQUARE(m), slot;
        if (kind == MC_GIVE) slot = MC_TARGET(m);
        else if (kind == MC_STAY) slot = 0;
        else if (sq == MC_FINISH_SQ) slot = c->finish * c->lanes;
        else slot = (sq >> 5) * c->lanes + (sq & 31);
        out[i] = (MC_RIDER(m) * 8 + kind) * slots + slot;
    }
    return n;
}
