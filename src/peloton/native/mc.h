/* Mind Cycling native core: the structs shared by the course tables, the rules and
 * the greedy policy.  The Python engine (peloton.games.mindcycling) is the reference:
 * every function here plays exactly its rules, move for move, and tests/native keeps
 * the two in lockstep.
 *
 * Layout (as in the Python engine): a square is the int `row << 5 | lane`; a rider is
 * its index in the game's sorted rider ids; sets of riders are 64-bit masks; a move is
 * one int (see MC_MOVE below).  Nothing here allocates: a game is a few flat arrays
 * that a playout copies with one memcpy.
 */
#ifndef PELOTON_MC_H
#define PELOTON_MC_H

#include <stdint.h>

#define MC_MAX_RIDERS 42          /* 7 teams of 6 (MC-2.2) */
#define MC_MAX_TEAMS 7
#define MC_MAX_TEAM 6
#define MC_MAX_FINISH 200         /* course.MAX_FINISH */
#define MC_ROWS (MC_MAX_FINISH + 2)
#define MC_MAX_FEED 2

/* Section codes of a row (MC-1.2; the start zone rides as plain). */
#define MC_START 0
#define MC_PLAIN 1
#define MC_SPRINT 2
#define MC_MOUNTAIN 3

/* Rider types (MC-2.1). */
#define MC_D 0
#define MC_S 1
#define MC_C 2

/* Move kinds (MC-10.1): @ - ! w r > = */
#define MC_PLACE 0
#define MC_MOVE 1
#define MC_ATTACK 2
#define MC_WHEEL 3
#define MC_RELAY 4
#define MC_GIVE 5
#define MC_STAY 6

/* Medal slots (MC-8.3): riders for the first three, a team for the last. */
#define MC_CYCLIST 0
#define MC_SPRINTER 1
#define MC_CLIMBER 2
#define MC_TEAM 3

/* A move: kind | rider << 3 | target << 9 | square << 15, square MC_FINISH_SQ for
 * across the line (MC-5.6), 0 when the kind has none. */
#define MC_FINISH_SQ 0x1FFF
#define MC_KIND(m) ((m) & 7)
#define MC_RIDER(m) (((m) >> 3) & 63)
#define MC_TARGET(m) (((m) >> 9) & 63)
#define MC_SQUARE(m) (((m) >> 15) & 0x1FFF)
#define MC_ENCODE(k, r, t, s) ((int32_t)((k) | (r) << 3 | (t) << 9 | (s) << 15))

typedef struct {
    int lanes, finish, start_rows;
    uint8_t section[MC_ROWS];      /* per row, MC_START .. MC_MOUNTAIN */
    uint16_t rock[MC_ROWS];        /* per row, a lane mask of rocks */
    uint16_t feed[MC_ROWS];        /* per row, a lane mask of feed squares */
    int feed_before[MC_ROWS + 1];  /* feed squares on rows before r (0 .. finish + 1) */
    int n_lines;                   /* medal_lines: (medal, last row), sprinter first */
    int line_medal[2], line_last[2];
    int last_sprint, last_mountain; /* last_row_of, -1 when absent */
    int n_feed_rows, feed_rows[MC_ROWS];
    int n_feed, feed_sq[MC_MAX_FEED]; /* course.feed, in its order */
} mc_course;

typedef struct {
    /* The facts (never changed by play). */
    int n_riders, n_teams, team_size, shelter, relay_limit, solo;
    uint8_t team[MC_MAX_RIDERS], type[MC_MAX_RIDERS];
    int8_t team_riders[MC_MAX_TEAMS][MC_MAX_TEAM]; /* placement order: D, S, C (MC-2.3) */

    /* Where the riders are. */
    int16_t square_of[MC_MAX_RIDERS];   /* -1 off the road */
    int8_t rider_at[MC_ROWS * 32];      /* -1 free */
    uint16_t blocked[MC_ROWS];          /* riders and rocks, per row */
    int n_on_road;
    uint64_t bottles, unplaced;
    int8_t finished[MC_MAX_RIDERS];
    int n_finished;
    int8_t medal[4];                    /* -1 until awarded */
    int8_t medal_order[4];              /* award order (the Python dict's order) */
    int n_medals;
    int round, gave, over, current, next_in_order;

    /* The round's tables (MC-4.2, MC-4.3, MC-6.1). */
    int8_t order[MC_MAX_RIDERS];
    int n_order;
    uint8_t section[MC_MAX_RIDERS];
    int8_t allowance[MC_MAX_RIDERS], leader[MC_MAX_RIDERS], follower[MC_MAX_RIDERS];
    int8_t train_place[MC_MAX_RIDERS];  /* 0: in no train */
    uint64_t assessed, against_wind, exhausted, held_bottle;

    /* This round (MC-6.2). */
    uint64_t done;
    int16_t g_head[MC_MAX_RIDERS];
    int8_t g_size[MC_MAX_RIDERS], g_closed[MC_MAX_RIDERS];
    int n_groups;
    int8_t group_of[MC_MAX_RIDERS];     /* -1: no group this round */
} mc_race;

/* Python's random.Random (MT19937), so that a playout draws what Rng draws. */
typedef struct {
    uint32_t mt[624];
    int index;
} mc_rng;

/* heuristics.Weights, as doubles (give ranges are whole rows). */
typedef struct {
    double next_round, train_trust, finish, medal, bottle_round, attack_bottle, give;
    int give_range, give_range_climber;
    double feed_next, follower, relay_room, blocked_wheel;
    double setup_d, setup_s, setup_c;
} mc_weights;

/* What a batch of playouts adds up. */
typedef struct {
    int64_t games, moves, rounds;
    int64_t trophies[MC_MAX_TEAMS], points[MC_MAX_TEAMS], medals[MC_MAX_TEAMS];
} mc_stats;

/* What the round walk found (walk.c): the distinct positions at the round's end,
 * each with one line of move codes to it (codes[line_at[i] .. line_at[i + 1]]). */
typedef struct {
    int n_ends, ends_cap;
    int32_t *line_at;      /* n_ends + 1 offsets into codes */
    int32_t *codes;
    uint8_t *over;         /* per end: the game is over */
    int32_t *need;         /* per end: Solver.rounds_needed (0: not asked, or over) */
    uint16_t *road;        /* per end: its key, n_riders values (walk.c) */
    int64_t codes_cap;
    int64_t nodes;         /* positions played */
    int64_t mid_positions; /* distinct mid-round positions walked */
    int64_t bound_calls;   /* calls of `need` (distinct sets of intervals) */
    int status;            /* 0 done, 1 stopped by the tick, -1 out of memory */
} mc_walk_out;

/* The tables of the solo solver's later-rounds bound (bound.c), built by Python's
 * solver.bounds.Bounds and copied in by solver.native_walk: per dry (0: the team
 * holds bottles, 1: dry), type (MC_D, MC_S, MC_C) and row, the furthest row on its own
 * legs (own), by a sheltered normal move (lead), on a train with n other riders on
 * the road (train[n], -1: never), and whether it may ride a train there. */
#define MC_BOUND_ROWS (MC_MAX_FINISH + 32)
typedef struct {
    int finish, relay_limit, top_allowance;
    int n_feed_rows, feed_rows[MC_MAX_FEED];
    int16_t own[2][3][MC_BOUND_ROWS], lead[2][3][MC_BOUND_ROWS];
    int16_t train[2][3][7][MC_BOUND_ROWS];
    uint8_t trainable[2][3][MC_BOUND_ROWS];
} mc_bounds;

/* rules.c */
void mc_init_race(mc_race *r);
void mc_put(mc_race *r, int rider, int sq);
void mc_assess(const mc_course *c, mc_race *r);
int mc_legal(const mc_course *c, const mc_race *r, int32_t *out, int cap);
void mc_play(const mc_course *c, mc_race *r, int32_t move);
int mc_team_points(const mc_race *r, int *points);
int mc_best_team(const mc_race *r);
int mc_trophy(const mc_race *r);

/* rng.c */
double mc_random(mc_rng *g);
void mc_seed(mc_rng *g, uint32_t seed);

/* playout.c */
int mc_random_playout(const mc_course *c, mc_race *r, mc_rng *g, int32_t *buf, int cap, int max_moves);
int mc_batch_random(const mc_course *c, const mc_race *start, int games, uint32_t seed,
                    int32_t *buf, int cap, mc_stats *stats);
int mc_legal_index(const mc_course *c, const mc_race *r, int32_t *out, int cap, int32_t slots);
int mc_greedy_playout(const mc_course *c, mc_race *r, const mc_weights *w, mc_rng *rngs,
                      const int8_t *rng_of_team, int always_draw, double tolerance,
                      int32_t *buf, int cap, double *scores, int32_t *played, int max_moves);

/* reach.c */
int mc_round_reach(const mc_race *r, int16_t *out);
int mc_may_end_this_round(const mc_course *c, const mc_race *r, int last_row);
int mc_dry_after_round(const mc_course *c, const mc_race *r, const int16_t *after, int n);
void mc_lift_lows(const mc_course *c, const mc_race *r, int16_t *after, int n);

/* bound.c: Bounds.rounds_needed of n riders (type, low, high), riders across, dry,
 * goal row of the rider left on the road (-1: none), may the game end already. */
int mc_rounds_needed(const mc_bounds *b, const int16_t *riders, int n, int crossed, int dry,
                     int last_row, int ends_now);

/* walk.c: `need` is the later rounds' bound of (type, low, high) * n, riders across,
 * dry, may the game end this round (-1: stop the walk). */
typedef int (*mc_need_fn)(const int16_t *riders, int n, int crossed, int dry, int ends_now);
int mc_walk(const mc_course *c, const mc_race *start, int budget, int last_row,
            const mc_bounds *bounds, mc_need_fn need, int (*tick)(void), mc_walk_out *out);
void mc_walk_free(mc_walk_out *out);

/* greedy.c */
void mc_score_moves(const mc_course *c, const mc_race *r, const mc_weights *w,
                    const int32_t *moves, int n, double *scores);

#endif
