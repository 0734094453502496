/* The compiled bezique engine: one deal as a state machine, a port of bezique.core.deal.
 *
 * Card ids, kinds (suit * 8 + rank, rank 0 = ace ... 7 = seven), meld ids and the order of
 * the legal actions are exactly those of the reference core, so that the two can be stepped
 * in lockstep.  Everything that depends on a Rules value is in a Config built once from
 * Python (bezique/fast/_config.py) out of the core's own functions. */
#ifndef BEZIQUE_FAST_ENGINE_H
#define BEZIQUE_FAST_ENGINE_H

#include <stdint.h>
#include "tables.h"

#define MAXC 320      /* cards in the whole pack */
#define MAXP 4        /* seats */
#define MAXH 40       /* cards in one hand */
#define NK 33         /* card kinds, the wild card included */
#define MAXMC 10      /* cards in one meld */
#define MAXMOVES 4096 /* legal actions in one position */
#define MAXINST 256   /* live melds (re-forming) */
#define MAXPLAN 512   /* ways to form a meld under one trump */
#define KHAVE 10      /* State.khave: kinds held at least 1 .. KHAVE-1 times */
#define HAND_PAD 24   /* room past a hand's MAXH cards, for moving its cards in blocks (rows of 64) */

enum { PH_PLAY = 0, PH_DECLARE = 1, PH_OVER = 2 };
enum { MV_PLAY = 0, MV_MELD = 1, MV_EXCH = 2, MV_PARTNER = 3, MV_PASS = 4 };
enum { PART_MELDS = 0, PART_TRICKS = 1, PART_LAST = 2, PART_BONUS = 3 };

typedef struct {
    uint64_t lo, hi; /* meld bits 0-63; hi holds the broken ("ghost") bits GHOST + meld */
} Mask;

typedef struct {
    uint8_t nk, n, kinds[4];
} Slot;

typedef struct {
    uint8_t meld, nslots, nneeds, nrank;
    Slot slots[5];
    Mask block;
    uint8_t need_n[5];
    uint32_t need_kinds[5];
    uint8_t rank_r[5], rank_n[5];
    /* worked out from the above (config.c), for a cheap first test in declare_moves: */
    uint64_t quick; /* every kind a need names: a hand lacking one cannot form this meld */
    uint64_t takes; /* every kind its slots take */
} PlanItem;

typedef struct {
    int players, active, hand_size, partnerships, sits_out, ncards, sides;
    uint8_t kind_of[MAXC];
    int first_id[NK], count[NK];
    int has_turn_up, turn_up_bonus, first_left; /* bonus: 0 none, 1 seven, 2 greek-club */
    int s1_follow, s2_head, s2_trump, play_out, reveal_last;
    int min_tricks, melds_per_trick, only_beating, repeat_doubles, partner_or, reforming;
    /* exch_rank -1: none; second_seven 0 declare 1 play 2 win-trick 3 play-always 4 capture */
    int seven_pts, exch_rank, exch_counts, second_seven;
    int exch_kind[5]; /* per trump (index 4: none) the kind that may be exchanged for the turn-up, or -1 */
    int per_rank[8], per_trick, immediate, last_bonus, settle;
    int carte_blanche, cb_repeat, tdm, seq_bez_jack;
    int first_bez; /* points of the deal's first bezique (0: as any other) */
    /* target_check=immediate; brisque-majority (HAITIAN.md 6) */
    int target_now, majority, b_min, b_penalty, b_tie, floor_zero;
    int seq_marriage; /* a trump sequence joins the declarer's live royal marriage (HAITIAN.md 3) */
    /* wild cards (the Haitian jokers): how many; a led one wins unless trumped; in the last
       tricks played only when nothing else is held; one scores in one meld only; the melds one
       may complete (bits by meld id) */
    int wild, lead_wins, wild_last, wild_once;
    /* seed 001: the leader of a trick draws first after it; the seven of trumps may be
       exchanged before min_tricks allows declaring */
    int leader_draws, exch_before;
    /* the seats that take part, clockwise from a first seat (the dealer left out when he sits
       out): seat_order[dealer][first][0 .. nactive-1] */
    int nactive;
    uint8_t seat_order[MAXP][MAXP][MAXP];
    /* trump_set_scoring=cumulative (old Russian, RULES.md 2.8): per set meld, the meld of each
       count of its family (-1: none), and what it pays with the largest of them its cards
       have shown already (0: none) */
    int cumulative;
    int8_t set_member[64][9];
    int64_t set_pts[64][9];
    uint64_t wild_ok;
    int64_t kval[NK]; /* what each kind brings to a trick's winner (a wild card: 0) */
    int64_t target;
    int64_t meld_score[64];
    /* the default policy of the search players (bots/playout.py), per trump (index 4: none) */
    double pol_rank[8], pol_per_trick, pol_declare[64], pol_exchange;
    double pol_marriage[5][4], pol_bez1[5], pol_bez2[5], pol_quartet[5][8], pol_sequence[5];
    int pol_bez_q[5], pol_bez_j[5]; /* -1: no bezique while trump is not fixed */
    int pol_ready;
    int nplan[5]; /* index 4: trump not fixed */
    PlanItem plan[5][MAXPLAN];
    /* The plan items as bits (where a plan has at most 64), for declare_moves to find the few a
       hand could form: by one kind each needs (the item's highest kind), by rank for items that
       need copies of a rank and no kind, and the rest always (config.c, index_plan). */
    int plan_indexed[5];
    uint64_t plan_by_kind[5][NK], plan_by_rank[5][8], plan_always[5];
    uint64_t plan_taking[5][NK]; /* indexed plans: the items a slot of which takes the kind */
    uint8_t plan_rank_min[5][8];
    /* the items whose needed kinds (PlanItem.quick) of one suit are all among a byte of kinds
       held, so that an AND over the four suits leaves the items whose kinds are all held (items
       that need a wild card or are found by rank left out) */
    uint64_t plan_sub_byte[5][4][256];
    uint64_t plan_rank_least[5]; /* plan_rank_min, 8 bytes below 128 in one word (declare_moves) */
} Config;

typedef struct {
    uint8_t seat, meld, n;
    uint16_t ids[MAXMC];
} Inst;

typedef struct {
    uint64_t gen; /* changes whenever the state does (keys the cache of declarations) */
    int8_t to_move, leader, phase, stage, trump, decl, exched, dealer;
    int16_t turn_up, last_winner, last_leader; /* of the latest trick (-1: none yet) */
    int16_t nstock;
    uint16_t ntricks;
    uint8_t hn[MAXP], tn, cb_any;
    uint8_t ntable[MAXP]; /* declared cards (mask not 0) in each hand */
    uint8_t tseat[MAXP], cb_state[MAXP];
    uint16_t tcard[MAXP];
    uint16_t won[MAXP];
    uint16_t ndoubled[MAXP][3];
    int64_t pts[MAXP][4];
    int64_t carry[MAXP]; /* each side's game score coming into the deal */
    uint8_t early;       /* the deal ended when a side reached the target */
    uint8_t views;       /* 1: the seats' views are read, so the known marks of like copies are
                            kept exact; 0 in batch play (simulate, playouts): only points count */
    uint8_t game_bez;    /* a bezique came in an earlier deal of this game (first_bezique spent) */
    /* the kinds each hand holds, kept as cards come and go (hand_insert, hand_remove; worked out
       again by st_recount_kinds after hands are set from outside): copies of each kind, the
       kinds held at least j times (khave[seat][j], j < KHAVE; a wild card is bit 32), the
       cards of each rank (the wild card counted with the aces) */
    uint8_t kcount[MAXP][64]; /* NK used; rows of 64 for cheaper indexing */
    uint8_t krank[MAXP][8];
    uint64_t khave[MAXP][KHAVE];
    uint16_t hand[MAXP][MAXH + HAND_PAD];
    uint16_t stock[MAXC]; /* drawn from the end */
    uint8_t known[MAXC];
    uint8_t played[NK];
    Mask mask[MAXC];
    /* what the observation tensor counts (bezique.envs.encoding): declarations per seat and
       meld, exchanges of the turn-up and carte blanche scores per seat */
    uint16_t nmeld[MAXP][64], nexch[MAXP], ncb[MAXP];
    uint16_t ninst;
    Inst inst[MAXINST];
} State;

typedef struct {
    uint8_t type, meld, n;
    uint16_t ids[MAXMC];
} Move;

/* The random source of simulations, playouts, determinization and the search players:
   wyrand (a 64-bit counter, one 64x64->128-bit multiply a number), seeded by splitmix64: a third
   of the instructions a number of xoshiro256**, the engine's earlier source. */
typedef struct {
    uint64_t s;
} Rng;

void rng_seed(Rng *r, uint64_t seed);

/* inline: simulations draw a number for nearly every card played */
static inline uint64_t rng_next(Rng *r) {
    uint64_t a = r->s += 0xa0761d6478bd642fULL, b = a ^ 0xe7037ed1a0b428dbULL;
#ifdef __SIZEOF_INT128__
    __extension__ unsigned __int128 t = (unsigned __int128)a * b;
    return (uint64_t)(t >> 64) ^ (uint64_t)t;
#else /* the same product from 32-bit halves */
    uint64_t al = a & 0xffffffffULL, ah = a >> 32, bl = b & 0xffffffffULL, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffULL) + (hl & 0xffffffffULL);
    uint64_t lo = (mid << 32) | (ll & 0xffffffffULL), hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return hi ^ lo;
#endif
}

/* A number below n (Lemire's multiply-shift on the high 32 bits). */
static inline uint32_t rng_below(Rng *r, uint32_t n) { return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32); }

/* Shuffle n cards (Fisher-Yates): two places from each number, its high and low 32 bits. */
static inline void rng_shuffle(Rng *r, uint16_t *a, int n) {
    for (int i = n - 1; i > 0; i -= 2) {
        uint64_t x = rng_next(r);
        int j = (int)(((x >> 32) * (uint64_t)(i + 1)) >> 32);
        uint16_t t = a[i];
        a[i] = a[j];
        a[j] = t;
        if (i > 1) {
            j = (int)(((x & 0xffffffffULL) * (uint64_t)i) >> 32);
            t = a[i - 1];
            a[i - 1] = a[j];
            a[j] = t;
        }
    }
}

/* A deal shuffled from the random source; dealer seat given. */
void st_new(State *st, const Config *cfg, int dealer, Rng *rng);
/* Start a deal from dealt cards (ids): turn-up -1 when the rules have none. */
void st_start(State *st, const Config *cfg, int dealer, uint16_t hands[MAXP][MAXH],
              const uint8_t *hn, int turn_up, const uint16_t *stock_draw_order, int nstock);
/* The cards of seat's play actions, in the order st_moves lists them (one a kind, or a kind and
   history where cards are declared); returns how many (at most MAXH). */
int st_play_cards(const State *st, const Config *cfg, int seat, uint16_t *pick);
/* The legal actions (-1: more than max). */
int st_moves(const State *st, const Config *cfg, Move *out, int max);
void st_apply(State *st, const Config *cfg, const Move *mv);
/* The actions of a declaring state as st_moves lists them, read in place (NULL: work them out
   with st_moves); valid until the state changes. */
const Move *st_declarations(const State *st, int *n);
/* Uniformly random actions (each legal action of st_moves alike), applied without listing the
   actions, until the deal ends or an action it cannot take this way; returns how many it
   applied. */
int st_random_run(State *st, const Config *cfg, Rng *rng);
/* Points per side as the reference's Deal.points shows them. */
void st_points(const State *st, const Config *cfg, int64_t *out);
/* The text of an action in notation: at most cap - 1 characters and a 0 are written; returns
   the whole text's length, written or not (as snprintf does). */
int st_move_text(const State *st, const Config *cfg, const Move *mv, char *buf, int cap);
/* Does kind k beat best, played before it?  lead_wins: a led wild card loses only to a trump. */
static inline int st_beats(int k, int best, int trump, int lead_wins) {
    int s = k >> 3, bs = best >> 3;
    if (s == bs) return (k & 7) < (best & 7);
    return s == trump || (best == WILD_KIND && k != WILD_KIND && !lead_wins);
}
/* Mark a state changed from outside the engine (loaded, determinized). */
void st_touch(State *st);
/* Count the declared cards of each hand again (after masks were set from outside). */
void st_recount(State *st);
/* Count the kinds each hand holds again (after hands were set from outside). */
void st_recount_kinds(State *st, const Config *cfg);

#endif
