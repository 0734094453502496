/* Helpers shared by the engine's sources (engine.c, declare.c, deal.c); not part of the engine's API. */
#ifndef BEZIQUE_FAST_ENGINE_INT_H
#define BEZIQUE_FAST_ENGINE_INT_H

#include <string.h>

#include "engine.h"

/* --- small helpers ------------------------------------------------------------------------ */
#define KIND(cfg, c) ((cfg)->kind_of[c])
#define HAS_MASK(m) ((m).lo | (m).hi)

static inline int side_of(const Config *cfg, int seat) { return cfg->partnerships ? seat % 2 : seat; }

static inline void score(State *st, const Config *cfg, int seat, int part, int64_t pts) {
    st->pts[side_of(cfg, seat)][part] += pts;
}

/* The counts of the kinds a hand holds (State.kcount and the rest) as a card of kind k comes or
 * goes. */
static inline void kinds_add(State *st, int seat, int k) {
    int c = ++st->kcount[seat][k];
    if (c < KHAVE) st->khave[seat][c] |= 1ULL << k;
    st->krank[seat][k & 7]++;
}

static inline void kinds_sub(State *st, int seat, int k) {
    int c = st->kcount[seat][k]--;
    if (c < KHAVE) st->khave[seat][c] &= ~(1ULL << k);
    st->krank[seat][k & 7]--;
}

/* Hands stay sorted by card id.  A card comes in by a pointer loop (a loop of indexes becomes a
 * call to memmove, dear for the few cards a hand holds); the cards after one that leaves move
 * down in one block of HAND_BLOCK where there are no more than that (a hand's row has room for
 * it, HAND_PAD; what lies past the hand's end moves along unread), else one by one. */
#define HAND_BLOCK 16
_Static_assert(HAND_BLOCK <= HAND_PAD, "a hand's row has room for a block past its end");
static inline void hand_insert(State *st, const Config *cfg, int seat, int c) {
    uint16_t *h = st->hand[seat], *p = h + st->hn[seat];
    while (p != h && p[-1] > c) {
        *p = p[-1];
        p--;
    }
    *p = (uint16_t)c;
    st->hn[seat]++;
    kinds_add(st, seat, KIND(cfg, c));
}

/* The card at place i of seat's hand leaves it. */
static inline void hand_remove_at(State *st, const Config *cfg, int seat, int i) {
    uint16_t *h = st->hand[seat] + i;
    int c = *h, after = st->hn[seat] - i - 1;
    if (after <= HAND_BLOCK) {
        uint16_t block[HAND_BLOCK];
        memcpy(block, h + 1, sizeof block);
        memcpy(h, block, sizeof block);
    } else {
        for (int j = 0; j < after; j++) h[j] = h[j + 1];
    }
    st->hn[seat]--;
    kinds_sub(st, seat, KIND(cfg, c));
}

static inline void hand_remove(State *st, const Config *cfg, int seat, int c) {
    const uint16_t *h = st->hand[seat], *end = h + st->hn[seat], *p = h;
    while (p != end && *p != c) p++;
    if (p != end) hand_remove_at(st, cfg, seat, (int)(p - h));
}

static inline int mask_lt(Mask a, Mask b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }
static inline int mask_eq(Mask a, Mask b) { return a.hi == b.hi && a.lo == b.lo; }

/* declare_moves past its first test (declare.c): melds from the candidate plan items cand (bits;
   all == 1: every item of the plan), then the exchange, partner and pass. */
int declare_more(const State *st, const Config *cfg, int seat, Move *out, int max, uint64_t cand, int all, int may_meld,
                 int room);
/* Carte blanche where it is due (deal.c): drawn is the card each seat drew, NULL after the deal. */
void carte_blanche(State *st, const Config *cfg, const uint8_t *order, int norder, const int *drawn);

#endif
