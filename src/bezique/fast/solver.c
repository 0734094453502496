/* The exact stage-2 solver in C: a port of bezique.bots.solver.Endgame (alpha-beta over the
 * tricks left, the stage-2 duties applied, equivalent cards tried once, positions at the start
 * of a trick in a transposition table with bounds).  Values are the margin of the tricks left
 * for one side, as the Python solver counts them. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define TT_BITS 16
#define TT_SIZE (1 << TT_BITS)

typedef struct {
    uint64_t key;
    uint32_t gen; /* the search that wrote it: older entries count as empty */
    int8_t best;  /* the kind that was best there: tried first next time */
    double lo, hi;
} TTEntry;

typedef struct {
    int n, active, skip, sides, side_of[MAXP], must_head, must_trump, trump, root_side;
    int lead_wins, wild_last; /* wild cards: a led one wins unless trumped; played last */
    double per_rank[8], per_trick, last_bonus, other;
    double per_kind[NK]; /* per_rank by card kind, a wild card worth nothing */
    double seven_bonus;  /* second_seven_scores=capture: each seven of trumps, to the taker */
    /* eq_lower[k]: the kinds below k of its suit worth the same points (none for a wild card, or
       a seven of trumps that scores apart); eq_cand: the kinds that have some */
    uint64_t eq_lower[NK], eq_cand;
    int hn[MAXP];
    int cnt[MAXP][NK];     /* copies of each kind held (not bytes: a byte store could alias any field) */
    uint64_t pres[MAXP];   /* kinds held, as bits: a hand's distinct kinds in order */
    uint64_t hash;         /* of the hands (zobrist), kept as cards come and go */
    double held_pts;       /* the points of every card in the hands */
    int held;              /* cards in the hands */
    int bounded;           /* no points are negative, so the bound of search() holds */
    int leader, tn, tseat[MAXP], tcard[MAXP];
    int next_seat[MAXP];           /* who plays after each seat (the one sitting out passed over) */
    int tricks;                    /* tricks not yet complete, the one in progress included */
    long nodes, limit; /* limit: the most nodes allowed (max_nodes, or no limit) */
    int aborted;
    uint32_t gen;
    TTEntry *tt;
} Solver;

static uint64_t zob[MAXP + 1][NK][MAXH];

/* The keys: xoshiro256** seeded by splitmix64 from 0x5eed (the engine's earlier random source),
   kept so that the table places positions, and the searches count nodes, as they always have. */
void solver_setup(void) {
    uint64_t x = 0x5eed, r[4];
    for (int i = 0; i < 4; i++) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        r[i] = z ^ (z >> 31);
    }
    for (int s = 0; s <= MAXP; s++)
        for (int k = 0; k < NK; k++)
            for (int c = 0; c < MAXH; c++) {
                uint64_t m = r[1] * 5, t = r[1] << 17;
                zob[s][k][c] = ((m << 7) | (m >> 57)) * 9;
                r[2] ^= r[0];
                r[3] ^= r[1];
                r[1] ^= r[2];
                r[0] ^= r[3];
                r[2] ^= t;
                r[3] = (r[3] << 45) | (r[3] >> 19);
            }
}

static uint64_t key_of(const Solver *sv) { return sv->hash ^ zob[MAXP][sv->leader][0]; }

static int beats(const Solver *sv, int k, int best) { return st_beats(k, best, sv->trump, sv->lead_wins); }

static int to_move(const Solver *sv) {
    return sv->tn ? sv->next_seat[sv->tseat[sv->tn - 1]] : sv->leader;
}

static inline uint64_t suit_bits(int s) { return 0xffULL << (s * 8); }

/* Those of the kinds `ks` (bits, all of one suit and no wild card) that beat `best`: worked
   out on the bits as st_beats decides it card by card. */
static uint64_t beating(const Solver *sv, uint64_t ks, int best) {
    int s = __builtin_ctzll(ks) >> 3;
    if (s == best >> 3) return ks & ((1ULL << best) - 1); /* the same suit: the higher ranks */
    return s == sv->trump || (best == WILD_KIND && !sv->lead_wins) ? ks : 0;
}

/* The kinds the seat may play (stage-2 duties), as bits; worked out on the bits of the kinds it
   holds. */
static inline __attribute__((always_inline)) uint64_t playable_bits(const Solver *sv, int seat) {
    uint64_t held = sv->pres[seat], ok = held;
    if (sv->tn) {
        int led = sv->tcard[0] >> 3, best = sv->tcard[0];
        for (int i = 1; i < sv->tn; i++)
            if (beats(sv, sv->tcard[i], best)) best = sv->tcard[i];
        uint64_t same = led < 4 ? held & suit_bits(led) : 0; /* a wild card led has no suit */
        uint64_t trumps = sv->trump >= 0 && sv->must_trump ? held & suit_bits(sv->trump) : 0;
        if (same) {
            uint64_t head = sv->must_head ? beating(sv, same, best) : 0;
            ok = head ? head : same;
        } else if (trumps) {
            uint64_t head = sv->must_head ? beating(sv, trumps, best) : trumps;
            ok = head ? head : held;
        }
    }
    if (sv->wild_last && (held >> WILD_KIND & 1)) { /* a wild card only when nothing else */
        uint64_t rest = ok & ~(1ULL << WILD_KIND);
        if (rest) ok = rest;
    }
    return ok;
}

/* Distinct kinds the seat may play, in kind order. */
static int playable(const Solver *sv, int seat, int *out) {
    int n = 0;
    for (uint64_t ok = playable_bits(sv, seat); ok; ok &= ok - 1) out[n++] = __builtin_ctzll(ok);
    return n;
}

/* One card of each class of equivalent cards among the kinds `ok` (bits), likely winners first:
   following, trumps, then by rank from the ace down, kind order within a rank (the stable sort
   by (not trump, rank) of the kinds in order); leading, the same with the trumps last (leading
   a plain ace before a trump proves cut-offs sooner: fewer nodes, the same values).  Their
   number, written to moves. */
static inline __attribute__((always_inline)) int ordered_classes(const Solver *sv, int seat, uint64_t ok, int *moves) {
    if (!(ok & (ok - 1))) {
        moves[0] = __builtin_ctzll(ok);
        return ok != 0;
    }
    uint64_t present = 0;
    for (int s = 0; s < sv->n; s++)
        if (s != seat) present |= sv->pres[s];
    for (int i = 0; i < sv->tn; i++) present |= 1ULL << sv->tcard[i];
    /* a kind is like the one before it (in kind order) of the same suit and points, with no
       card between them left anywhere (a seven of trumps that scores apart excepted): the
       highest kind below it among those held here or present elsewhere is then that one */
    uint64_t seen = ok | present, drop = 0;
    for (uint64_t c = ok & (ok - 1) & sv->eq_cand; c; c &= c - 1) {
        int k = __builtin_ctzll(c), p = 63 - __builtin_clzll(seen & ((1ULL << k) - 1));
        drop |= (ok & sv->eq_lower[k]) >> p & 1 ? 1ULL << k : 0;
    }
    ok &= ~drop;
    int n = 0;
    uint64_t t = sv->trump >= 0 ? ok & suit_bits(sv->trump) : 0;
    ok ^= t;
    if (sv->tn) /* following: trumps first (they take the trick); leading: they come last */
        for (; t; t &= t - 1) moves[n++] = __builtin_ctzll(t);
    /* the ranks held, then each rank's kinds (the wild card is rank 0 of a fifth suit) */
    uint64_t ranks = (ok | ok >> 8 | ok >> 16 | ok >> 24 | ok >> 32) & 0xff;
    for (; ranks; ranks &= ranks - 1)
        for (uint64_t col = ok & (0x0101010101ULL << __builtin_ctzll(ranks)); col; col &= col - 1)
            moves[n++] = __builtin_ctzll(col);
    for (; t; t &= t - 1) moves[n++] = __builtin_ctzll(t);
    return n;
}

static double search_node(Solver *sv, double alpha, double beta, double alpha0, double beta0, TTEntry *e,
                          uint64_t key);
static inline double search(Solver *sv, double alpha, double beta);

static void take(Solver *sv, int seat, int k) {
    sv->held_pts -= sv->per_kind[k];
    sv->held--;
    int c = --sv->cnt[seat][k];
    sv->hash ^= zob[seat][k][c];
    if (!c) sv->pres[seat] &= ~(1ULL << k);
    sv->hn[seat]--;
}

static void give(Solver *sv, int seat, int k) {
    sv->held_pts += sv->per_kind[k];
    sv->held++;
    int c = sv->cnt[seat][k]++;
    sv->hash ^= zob[seat][k][c];
    sv->pres[seat] |= 1ULL << k;
    sv->hn[seat]++;
}

static double play(Solver *sv, int seat, int k, double alpha, double beta) {
    take(sv, seat, k);
    sv->tseat[sv->tn] = seat;
    sv->tcard[sv->tn++] = k;
    double v;
    if (sv->tn < sv->active) {
        v = search(sv, alpha, beta);
        sv->tn--;
    } else {
        int win_seat = sv->tseat[0], best = sv->tcard[0];
        double pts = sv->per_trick + sv->per_kind[best];
        for (int i = 1; i < sv->tn; i++) {
            pts += sv->per_kind[sv->tcard[i]];
            if (beats(sv, sv->tcard[i], best)) {
                best = sv->tcard[i];
                win_seat = sv->tseat[i];
            }
        }
        if (sv->seven_bonus != 0.0)
            for (int i = 0; i < sv->tn; i++) pts += sv->tcard[i] == sv->trump * 8 + 7 ? sv->seven_bonus : 0.0;
        int empty = !sv->hn[seat];
        if (empty) pts += sv->last_bonus;
        double delta = sv->side_of[win_seat] == sv->root_side ? pts : -pts * sv->other;
        int leader = sv->leader, tn = sv->tn, ts[MAXP], tc[MAXP];
        memcpy(ts, sv->tseat, sizeof ts);
        memcpy(tc, sv->tcard, sizeof tc);
        sv->leader = win_seat;
        sv->tn = 0;
        sv->tricks--;
        v = empty ? delta : delta + search(sv, alpha - delta, beta - delta);
        sv->tricks++;
        sv->leader = leader;
        sv->tn = tn - 1;
        memcpy(sv->tseat, ts, sizeof ts);
        memcpy(sv->tcard, tc, sizeof tc);
    }
    give(sv, seat, k);
    return v;
}

/* The last trick, every seat holding one card: played out at once, its value and the leader's
   card written, as the search would find them (the nodes it would count counted, the node limit
   applied the same way); 0 if some seat holds another number of cards. */
static int last_trick(Solver *sv, double *value, int *lead_kind) {
    int seat = sv->leader, ks[MAXP];
    for (int i = 0; i < sv->active; i++, seat = sv->next_seat[seat]) {
        if (sv->hn[seat] != 1) return 0;
        ks[i] = __builtin_ctzll(sv->pres[seat]);
        if (i) sv->tseat[i] = seat; /* where play() would put them */
    }
    /* the seats after the leader: one node each */
    if (sv->nodes + sv->active - 1 > sv->limit) {
        sv->nodes = sv->limit + 1;
        sv->aborted = 1;
        return 1;
    }
    sv->nodes += sv->active - 1;
    int win = 0, top = ks[0];
    double pts = sv->per_trick + sv->per_kind[ks[0]];
    for (int i = 1; i < sv->active; i++) {
        pts += sv->per_kind[ks[i]];
        if (beats(sv, ks[i], top)) {
            top = ks[i];
            win = i;
        }
    }
    if (sv->seven_bonus != 0.0)
        for (int i = 0; i < sv->active; i++) pts += ks[i] == sv->trump * 8 + 7 ? sv->seven_bonus : 0.0;
    pts += sv->last_bonus;
    int win_seat = win ? sv->tseat[win] : sv->leader;
    *value = sv->side_of[win_seat] == sv->root_side ? pts : -pts * sv->other;
    *lead_kind = ks[0];
    return 1;
}

/* A node past its first tests (see search()): alpha and beta as the table narrowed them,
   alpha0 and beta0 as given; e and key: its place in the table at the start of a trick (NULL
   within one). */
static double search_node(Solver *sv, double alpha, double beta, double alpha0, double beta0, TTEntry *e,
                          uint64_t key) {
    double best;
    int best_k;
    if (e && sv->held == sv->active && last_trick(sv, &best, &best_k)) {
        if (sv->aborted) return 0.0;
        goto store;
    }
    int seat = to_move(sv), moves[MAXH];
    int maximize = sv->side_of[seat] == sv->root_side;
    int n = ordered_classes(sv, seat, playable_bits(sv, seat), moves);
    if (e && e->key == key && e->gen == sv->gen && e->best >= 0)
        for (int i = 1; i < n; i++)
            if (moves[i] == e->best) { /* the move that was best here before, first */
                memmove(moves + 1, moves, sizeof(int) * (size_t)i);
                moves[0] = e->best;
                break;
            }
    if (sv->tn == sv->active - 1 && n > 1) { /* the trick's last card */
        int win_seat = sv->tseat[0], top = sv->tcard[0];
        for (int i = 1; i < sv->tn; i++)
            if (beats(sv, sv->tcard[i], top)) {
                top = sv->tcard[i];
                win_seat = sv->tseat[i];
            }
        if (sv->side_of[win_seat] != sv->side_of[seat]) {
            /* the other side holds the trick: the cards that take it first, the highest first
               (it wins the most points: cut-offs come sooner than with the cheapest), then the
               cheapest of the rest (the list runs from trumps and high ranks down) */
            int w[MAXH], l[MAXH], nw = 0, nl = 0;
            for (int i = 0; i < n; i++) {
                if (beats(sv, moves[i], top))
                    w[nw++] = moves[i];
                else
                    l[nl++] = moves[i];
            }
            for (int i = 0; i < nw; i++) moves[i] = w[i];
            for (int i = 0; i < nl; i++) moves[nw + i] = l[nl - 1 - i];
        }
    }
    best = maximize ? -INFINITY : INFINITY;
    best_k = -1;
    for (int i = 0; i < n; i++) {
        double v = play(sv, seat, moves[i], alpha, beta);
        if (maximize ? v > best : v < best) {
            best = v;
            best_k = moves[i];
            if (maximize && v > alpha) alpha = v;
            if (!maximize && v < beta) beta = v;
            if (alpha >= beta) break;
        }
    }
store:
    if (e && !sv->aborted) {
        double lo = -INFINITY, hi = INFINITY;
        if (e->key == key && e->gen == sv->gen) {
            lo = e->lo;
            hi = e->hi;
        }
        if (best <= alpha0)
            hi = best < hi ? best : hi;
        else if (best >= beta0)
            lo = best > lo ? best : lo;
        else
            lo = hi = best;
        e->key = key;
        e->gen = sv->gen;
        e->best = (int8_t)best_k;
        e->lo = lo;
        e->hi = hi;
    }
    return best;
}

/* The value of the position for the root side within (alpha, beta): a node counted, then (at
   the start of a trick) the bound of the points left and the table tried before the moves;
   inline, so that a node they settle costs no call. */
static inline __attribute__((always_inline)) double search(Solver *sv, double alpha, double beta) {
    if (sv->aborted) return 0.0;
    if (++sv->nodes > sv->limit) {
        sv->aborted = 1;
        return 0.0;
    }
    if (sv->tn) return search_node(sv, alpha, beta, alpha, beta, NULL, 0);
    double alpha0 = alpha, beta0 = beta;
    /* the tricks left are worth at most all their points to one side: outside that range the
       window cannot be reached (every card scores its points once, each trick its per-trick
       points, the last one its bonus) */
    if (sv->bounded) {
        double most = sv->held_pts + sv->per_trick * sv->tricks + sv->last_bonus;
        if (alpha >= most) return most;
        if (beta <= -most * sv->other) return -most * sv->other;
    }
    uint64_t key = key_of(sv);
    TTEntry *e = &sv->tt[key & (TT_SIZE - 1)];
    if (e->key == key && e->gen == sv->gen) {
        if (e->lo >= beta) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo == e->hi) return e->lo;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
    }
    return search_node(sv, alpha, beta, alpha0, beta0, e, key);
}

/* Exact values of every card kind the seat to move may play, for `side`; -1 if the node
   limit was reached, else the number of kinds (written to kinds/values). */
/* Set a solver up on a stage-2 state: 0, or -2 without memory for the table. */
static int solver_init(Solver *sv, const State *st, const Config *cfg, const double *per_rank, double per_trick,
                       int side, long max_nodes) {
    static _Thread_local TTEntry *table; /* one table a thread: searches run without the GIL */
    static _Thread_local uint32_t generation;
    if (!table) {
        table = calloc(TT_SIZE, sizeof(TTEntry));
        if (!table) return -2;
    }
    if (++generation == 0) { /* wrapped: clear once */
        memset(table, 0, sizeof(TTEntry) * TT_SIZE);
        generation = 1;
    }
    memset(sv, 0, sizeof *sv);
    sv->tt = table;
    sv->gen = generation;
    sv->n = cfg->players;
    sv->active = cfg->active;
    sv->skip = cfg->sits_out ? st->dealer : -1;
    sv->sides = cfg->sides;
    for (int s = 0; s < sv->n; s++) {
        int nxt = (s + 1) % sv->n;
        sv->next_seat[s] = nxt == sv->skip ? (nxt + 1) % sv->n : nxt;
    }
    for (int s = 0; s < sv->n; s++) sv->side_of[s] = cfg->partnerships ? s % 2 : s;
    sv->must_head = cfg->s2_head;
    sv->must_trump = cfg->s2_trump;
    sv->trump = st->trump;
    sv->root_side = side;
    memcpy(sv->per_rank, per_rank, sizeof sv->per_rank);
    for (int k = 0; k < NK; k++) sv->per_kind[k] = k == WILD_KIND ? 0.0 : per_rank[k & 7];
    sv->lead_wins = cfg->lead_wins;
    sv->wild_last = cfg->wild_last;
    sv->seven_bonus = cfg->second_seven == 4 ? (double)cfg->seven_pts : 0.0;
    for (int r = 1; r < 8; r++) { /* by rank, then in every suit */
        uint64_t lower = 0;
        for (int j = 0; j < r; j++) lower |= per_rank[j] == per_rank[r] ? 1ULL << j : 0;
        if (!lower || (r == 7 && sv->seven_bonus != 0.0)) continue;
        for (int s = 0; s < 4; s++) sv->eq_lower[s * 8 + r] = lower << (s * 8);
        sv->eq_cand |= 0x0101010101ULL << r & 0xffffffffULL;
    }
    /* the bound of search() counts card and trick points only */
    sv->bounded = per_trick >= 0 && cfg->last_bonus >= 0 && sv->seven_bonus == 0.0;
    for (int k = 0; k < NK; k++) sv->bounded &= sv->per_kind[k] >= 0;
    sv->per_trick = per_trick;
    sv->last_bonus = cfg->last_bonus;
    sv->other = 1.0 / (sv->sides - 1);
    for (int s = 0; s < sv->n; s++)
        for (int i = 0; i < st->hn[s]; i++) give(sv, s, cfg->kind_of[st->hand[s][i]]);
    sv->leader = st->leader;
    sv->tn = st->tn;
    sv->tricks = (sv->held + st->tn) / sv->active;
    for (int i = 0; i < st->tn; i++) {
        sv->tseat[i] = st->tseat[i];
        sv->tcard[i] = cfg->kind_of[st->tcard[i]];
    }
    sv->limit = max_nodes > 0 ? max_nodes : LONG_MAX;
    return 0;
}

/* The exact value for `side` of the tricks left with best play by every seat: 0 and the
   value in *value, -1 past the node limit, -2 without memory. */
int solve_stage2_value(const State *st, const Config *cfg, const double *per_rank, double per_trick, int side,
                       long max_nodes, double *value, long *nodes) {
    Solver sv;
    int rc = solver_init(&sv, st, cfg, per_rank, per_trick, side, max_nodes);
    if (rc < 0) return rc;
    double v = search(&sv, -INFINITY, INFINITY);
    *nodes = sv.nodes;
    if (sv.aborted) return -1;
    *value = v;
    return 0;
}

int solve_stage2(const State *st, const Config *cfg, const double *per_rank, double per_trick, int side,
                 long max_nodes, int *kinds, double *values, long *nodes) {
    Solver sv;
    int rc = solver_init(&sv, st, cfg, per_rank, per_trick, side, max_nodes);
    if (rc < 0) return rc;
    int seat = to_move(&sv), all[MAXH], cls[MAXH];
    int n = playable(&sv, seat, all);
    int nc = ordered_classes(&sv, seat, playable_bits(&sv, seat), cls);
    double cls_value[MAXH];
    for (int i = 0; i < nc; i++) {
        cls_value[i] = play(&sv, seat, cls[i], -INFINITY, INFINITY);
        if (sv.aborted) return -1;
    }
    /* a kind left out takes the value of its class: the tried kind of the same suit and
       points with nothing between them */
    for (int i = 0; i < n; i++) {
        kinds[i] = all[i];
        values[i] = NAN;
        for (int j = 0; j < nc; j++)
            if (cls[j] == all[i]) values[i] = cls_value[j];
    }
    for (int i = 0; i < n; i++)
        if (isnan(values[i]))
            for (int j = i - 1; j >= 0; j--)
                if (!isnan(values[j]) && (all[j] >> 3) == (all[i] >> 3)) {
                    values[i] = values[j];
                    break;
                }
    *nodes = sv.nodes;
    return n;
}
