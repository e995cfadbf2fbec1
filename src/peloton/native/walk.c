/* The solo solver's round walk in C: from a race at a round's start (or in setup),
 * every turn of the round is played with the rules of rules.c, depth first, and
 * every distinct position at the round's end (or the game's end) is kept with one
 * line of move codes to it.  It is peloton.games.mindcycling.solver.search's
 * Solver.successors, move for move:
 *
 * - mid-round positions equal in everything the rest of the round depends on (the
 *   riders' squares, bottles, riders done, every rider's group, the rider to play,
 *   whether a bottle was given this turn, riders across) are walked once: the
 *   turn order of the rest of the round follows from them (MC-4.3 to MC-4.5), and
 *   so do the moves (MC-5 to MC-7);
 * - round-end positions are told apart as search.position_key does: the riders on
 *   the road as (type, square, bottle), riders of one type being interchangeable
 *   (their allowances come from their type, MC-2.1; the order from squares, MC-4.3);
 * - the round bound prunes (when the caller gives `need`): a mid-round position is
 *   walked on only if it may still end the game within `budget` rounds (this one
 *   included), a round-end position kept only if it may within `budget - 1` more,
 *   as Solver.rounds_needed says: this round from its own assessment (reach.c), the
 *   later rounds by `need`, the caller's Bounds.rounds_needed of the riders'
 *   intervals, asked once per distinct set of intervals.  A finished game is a real
 *   line and always kept.
 *
 * Each end comes with its key (the riders on the road as type << 14 | bottle << 13 |
 * square, sorted, 0xFFFF for each rider across) and its bound (1 + the later rounds'
 * bound, 0 without one or when the game is over).
 *
 * Memory grows as needed (two hash sets and the lines); mc_walk_free returns it.
 */
#include <stdlib.h>
#include <string.h>
#include "mc.h"

#define TICK_EVERY 256 /* positions between two calls of the caller's clock (a CPU clock costs microseconds) */

/* An open-addressing set of fixed-size byte keys (the hash kept beside each key). */
typedef struct {
    uint8_t *keys;
    uint64_t *hash; /* 0: free slot */
    int32_t *value; /* a value per key (the memo of the later rounds' bound) */
    int64_t cap, used;
    int width;
} keyset;

static int set_init(keyset *s, int width, int64_t cap) {
    s->width = width;
    s->cap = cap;
    s->used = 0;
    s->keys = malloc((size_t)cap * (size_t)width);
    s->hash = calloc((size_t)cap, sizeof *s->hash);
    s->value = malloc((size_t)cap * sizeof *s->value);
    return s->keys && s->hash && s->value ? 0 : -1;
}

static void set_free(keyset *s) {
    free(s->keys);
    free(s->hash);
    free(s->value);
    s->keys = NULL;
    s->hash = NULL;
    s->value = NULL;
}

static uint64_t hash_bytes(const uint8_t *p, int n) {
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, then a final mix */
    for (int i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h ? h : 1;
}

static int set_grow(keyset *s) {
    keyset big;
    if (set_init(&big, s->width, s->cap * 2) < 0) {
        set_free(&big);
        return -1;
    }
    for (int64_t i = 0; i < s->cap; i++) {
        if (!s->hash[i]) continue;
        int64_t j = (int64_t)(s->hash[i] & (uint64_t)(big.cap - 1));
        while (big.hash[j]) j = (j + 1) & (big.cap - 1);
        big.hash[j] = s->hash[i];
        big.value[j] = s->value[i];
        memcpy(big.keys + j * big.width, s->keys + i * s->width, (size_t)s->width);
    }
    big.used = s->used;
    set_free(s);
    *s = big;
    return 0;
}

/* Add `key`: 1 if it is new, 0 if it was there, -1 when out of memory; *slot is
 * where it is. */
static int set_add(keyset *s, const uint8_t *key, int64_t *slot) {
    if (2 * (s->used + 1) > s->cap && set_grow(s) < 0) return -1;
    uint64_t h = hash_bytes(key, s->width);
    int64_t j = (int64_t)(h & (uint64_t)(s->cap - 1));
    while (s->hash[j]) {
        if (s->hash[j] == h && !memcmp(s->keys + j * s->width, key, (size_t)s->width)) {
            *slot = j;
            return 0;
        }
        j = (j + 1) & (s->cap - 1);
    }
    *slot = j;
    s->hash[j] = h;
    memcpy(s->keys + j * s->width, key, (size_t)s->width);
    s->used++;
    return 1;
}

/* Everything the rest of a round depends on (search._turn_key). */
static int turn_key(const mc_race *r, uint8_t *key) {
    int n = 0;
    for (int i = 0; i < r->n_riders; i++) {
        int16_t sq = r->square_of[i], head = -2;
        int8_t size = 0, closed = 0;
        int gi = r->group_of[i];
        if (gi >= 0) {
            head = r->g_head[gi];
            size = r->g_size[gi];
            closed = r->g_closed[gi];
        }
        memcpy(key + n, &sq, 2);
        memcpy(key + n + 2, &head, 2);
        key[n + 4] = (uint8_t)size;
        key[n + 5] = (uint8_t)closed;
        n += 6;
    }
    memcpy(key + n, &r->bottles, 8);
    memcpy(key + n + 8, &r->done, 8);
    key[n + 16] = (uint8_t)r->current;
    key[n + 17] = (uint8_t)r->gave;
    key[n + 18] = (uint8_t)r->n_finished;
    return n + 19;
}

static int cmp_u16(const void *a, const void *b) {
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* The riders on the road as sorted (type, bottle, square), and whether it is over
 * (search.position_key). */
static int end_key(const mc_race *r, uint8_t *key) {
    uint16_t v[MC_MAX_RIDERS];
    int n = 0;
    for (int i = 0; i < r->n_riders; i++) {
        int sq = r->square_of[i];
        if (sq < 0) continue;
        v[n++] = (uint16_t)(r->type[i] << 14 | (int)(r->bottles >> i & 1) << 13 | sq);
    }
    qsort(v, (size_t)n, sizeof v[0], cmp_u16);
    for (int i = n; i < r->n_riders; i++) v[i] = 0xFFFF;
    memcpy(key, v, 2 * (size_t)r->n_riders);
    key[2 * r->n_riders] = (uint8_t)r->over;
    return 2 * r->n_riders + 1;
}

typedef struct {
    const mc_course *c;
    const mc_bounds *bounds;
    mc_need_fn need;
    int (*tick)(void);
    int budget, last_row, start_round, depth_cap, stop;
    keyset seen, ends, memo;
    mc_race *stack;  /* one race per depth */
    int32_t *moves;  /* one list of legal moves per depth */
    int moves_cap;
    int32_t *path;
    uint8_t key[512];
    mc_walk_out *out;
} walker;

static int push_end(walker *w, int depth, int over, int need, int n_riders) {
    mc_walk_out *o = w->out;
    if (o->n_ends + 2 > o->ends_cap) {
        int cap = o->ends_cap ? 2 * o->ends_cap : 1024;
        int32_t *at = realloc(o->line_at, (size_t)cap * sizeof *at);
        if (!at) return -1;
        o->line_at = at;
        uint8_t *ov = realloc(o->over, (size_t)cap);
        if (!ov) return -1;
        o->over = ov;
        int32_t *nd = realloc(o->need, (size_t)cap * sizeof *nd);
        if (!nd) return -1;
        o->need = nd;
        uint16_t *road = realloc(o->road, (size_t)cap * (size_t)n_riders * sizeof *road);
        if (!road) return -1;
        o->road = road;
        o->ends_cap = cap;
        if (o->n_ends == 0) o->line_at[0] = 0;
    }
    int64_t room = (int64_t)o->line_at[o->n_ends] + depth;
    if (room > o->codes_cap) {
        int64_t cap = o->codes_cap ? 2 * o->codes_cap : 16384;
        while (cap < room) cap *= 2;
        int32_t *codes = realloc(o->codes, (size_t)cap * sizeof *codes);
        if (!codes) return -1;
        o->codes = codes;
        o->codes_cap = cap;
    }
    memcpy(o->codes + o->line_at[o->n_ends], w->path, (size_t)depth * sizeof *w->path);
    o->over[o->n_ends] = (uint8_t)over;
    o->need[o->n_ends] = need;
    memcpy(o->road + (int64_t)o->n_ends * n_riders, w->key, 2 * (size_t)n_riders);
    o->n_ends++;
    o->line_at[o->n_ends] = (int32_t)room;
    return 0;
}

/* (type, low, high) before (type, low, high), as Python sorts tuples. */
static int triple_less(const int16_t *a, const int16_t *b) {
    if (a[0] != b[0]) return a[0] < b[0];
    if (a[1] != b[1]) return a[1] < b[1];
    return a[2] < b[2];
}

/* Solver.rounds_needed - 1 of a position in the round (or at the next one's start):
 * the later rounds' bound on this round's intervals; -1 when `need` failed. */
static int later_rounds(walker *w, const mc_race *r) {
    int16_t after[3 * MC_MAX_RIDERS];
    int n = mc_round_reach(r, after);
    int dry = mc_dry_after_round(w->c, r, after, n), ends_now = mc_may_end_this_round(w->c, r, w->last_row);
    mc_lift_lows(w->c, r, after, n); /* from the next round on (feed rows count from the row) */
    for (int i = 1; i < n; i++) { /* sorted: one memo entry per set of intervals */
        int16_t t[3] = {after[3 * i], after[3 * i + 1], after[3 * i + 2]};
        int j = i;
        for (; j > 0 && triple_less(t, &after[3 * (j - 1)]); j--)
            memcpy(&after[3 * j], &after[3 * (j - 1)], sizeof t);
        memcpy(&after[3 * j], t, sizeof t);
    }
    uint8_t *key = w->key;
    memset(key, 0xFF, (size_t)w->memo.width);
    memcpy(key, after, (size_t)n * 3 * sizeof after[0]);
    int at = 6 * r->n_riders;
    key[at] = (uint8_t)r->n_finished;
    key[at + 1] = (uint8_t)dry;
    key[at + 2] = (uint8_t)ends_now;
    int64_t slot;
    int added = set_add(&w->memo, key, &slot);
    if (added < 0) return -1;
    if (added) {
        /* bound.c when the caller gave the tables: no call back into Python */
        int v = w->bounds ? mc_rounds_needed(w->bounds, after, n, r->n_finished, dry, w->last_row,
                                             ends_now)
                          : w->need(after, n, r->n_finished, dry, ends_now);
        if (v < 0) {
            w->stop = 1;
            return -1;
        }
        w->memo.value[slot] = v;
        w->out->bound_calls++;
    }
    return w->memo.value[slot];
}

/* Walk every move of the position at stack[depth]; 0, or -1 out of memory. */
static int walk(walker *w, int depth) {
    const mc_race *here = &w->stack[depth];
    int32_t *moves = w->moves + (int64_t)depth * w->moves_cap;
    int n = mc_legal(w->c, here, moves, w->moves_cap);
    if (n < 0 || depth + 1 >= w->depth_cap) return -1;
    mc_race *child = &w->stack[depth + 1];
    for (int k = 0; k < n && !w->stop; k++) {
        int32_t move = moves[k];
        memcpy(child, here, sizeof *child);
        mc_play(w->c, child, move);
        w->out->nodes++;
        if (!(w->out->nodes % TICK_EVERY) && w->tick && w->tick()) {
            w->stop = 1;
            return 0;
        }
        w->path[depth] = move;
        int ended = child->over || child->round != w->start_round, need = 0;
        if ((w->bounds || w->need) && !child->over) {
            /* Within the round the budget counts this round; at its end, the next. */
            int later = later_rounds(w, child);
            if (later < 0) return w->stop ? 0 : -1;
            need = 1 + later;
            if (need > w->budget - ended) continue;
        }
        if (ended) {
            end_key(child, w->key);
            int64_t slot;
            int added = set_add(&w->ends, w->key, &slot);
            if (added < 0) return -1;
            if (added && push_end(w, depth + 1, child->over, need, child->n_riders) < 0) return -1;
        } else {
            turn_key(child, w->key);
            int64_t slot;
            int added = set_add(&w->seen, w->key, &slot);
            if (added < 0 || (added && walk(w, depth + 1) < 0)) return -1;
        }
    }
    return 0;
}

int mc_walk(const mc_course *c, const mc_race *start, int budget, int last_row,
            const mc_bounds *bounds, mc_need_fn need, int (*tick)(void), mc_walk_out *out) {
    walker w;
    memset(&w, 0, sizeof w);
    memset(out, 0, sizeof *out);
    w.c = c;
    w.bounds = bounds;
    w.need = need;
    w.budget = budget;
    w.last_row = last_row;
    w.tick = tick;
    w.out = out;
    w.start_round = start->round;
    /* A round is at most a gift and a move per rider (MC-7.1); setup a placement each. */
    w.depth_cap = 2 * start->n_riders + 3;
    int status = -1;
    w.stack = malloc((size_t)w.depth_cap * sizeof *w.stack);
    w.path = malloc((size_t)w.depth_cap * sizeof *w.path);
    /* Room for every move: a placement per rider and start square (MC-3.1), else
     * moves and attacks per square within reach, a gift, a wheel, a relay. */
    w.moves_cap = start->n_riders * c->start_rows * c->lanes + 64 * c->lanes + 64;
    w.moves = malloc((size_t)w.depth_cap * (size_t)w.moves_cap * sizeof *w.moves);
    if (w.stack && w.path && w.moves && !set_init(&w.seen, 6 * start->n_riders + 19, 1 << 12) &&
        !set_init(&w.ends, 2 * start->n_riders + 1, 1 << 10) &&
        !set_init(&w.memo, 6 * start->n_riders + 3, 1 << 10) && !start->over) {
        memcpy(&w.stack[0], start, sizeof *start);
        status = walk(&w, 0) < 0 ? -1 : w.stop;
    }
    out->mid_positions = w.seen.used;
    set_free(&w.seen);
    set_free(&w.ends);
    set_free(&w.memo);
    free(w.stack);
    free(w.moves);
    free(w.path);
    out->status = status;
    return status;
}

void mc_walk_free(mc_walk_out *out) {
    free(out->line_at);
    free(out->codes);
    free(out->over);
    free(out->need);
    free(out->road);
    out->need = NULL;
    out->road = NULL;
    out->line_at = NULL;
    out->codes = NULL;
    out->over = NULL;
    out->n_ends = out->ends_cap = 0;
    out->codes_cap = 0;
}
