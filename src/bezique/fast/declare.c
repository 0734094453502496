/* The declarations a seat may make (the meld search of bezique.core.deal), past the first test
 * that engine.c makes where a trick ends: the candidate plan items held, their cards grouped by
 * kind and history, every way to take each item's cards, and then the exchange and the pass. */
#include "engine_int.h"

#include <string.h>

/* Interchangeable cards of a seat: same kind and history, concealed (mask 0) first. */
#define MAXCOPIES 16 /* copies of one kind in one hand (ten packs at most: MAXC) */
typedef struct {
    Mask m;
    uint8_t n;
    uint16_t ids[MAXCOPIES];
} Group;

typedef struct {
    uint8_t ng[NK], first[NK];
    Group g[MAXH];
} Groups;

/* The groups of the kinds in need (bits; the others are left empty). */
static void make_groups(const State *st, const Config *cfg, int seat, Groups *gs, uint64_t need) {
    int total = 0;
    memset(gs->ng, 0, sizeof gs->ng);
    const uint16_t *hand = st->hand[seat];
    int hn = st->hn[seat];
    if (!st->ntable[seat]) { /* nothing declared: one group a kind, every mask 0 */
        Group *g = NULL;
        for (int i = 0, prev = -1; i < hn; i++) {
            int k = KIND(cfg, hand[i]);
            if (!(need >> k & 1)) continue;
            if (k != prev) {
                prev = k;
                gs->first[k] = (uint8_t)total;
                gs->ng[k] = 1;
                g = &gs->g[total++];
                g->m.lo = g->m.hi = 0;
                g->n = 0;
            }
            g->ids[g->n++] = hand[i];
        }
        return;
    }
    for (int i = 0; i < hn;) {
        int k = KIND(cfg, hand[i]), j = i;
        while (j < hn && KIND(cfg, hand[j]) == k) j++;
        if (!(need >> k & 1)) {
            i = j;
            continue;
        }
        gs->first[k] = (uint8_t)total;
        for (int a = i; a < j; a++) {
            Mask m = st->mask[hand[a]];
            int found = -1;
            for (int g = total; g < total + gs->ng[k]; g++)
                if (mask_eq(gs->g[g].m, m)) found = g;
            if (found < 0) {
                /* sorted insert by mask */
                int pos = total + gs->ng[k];
                while (pos > total && mask_lt(m, gs->g[pos - 1].m)) {
                    gs->g[pos] = gs->g[pos - 1];
                    pos--;
                }
                gs->g[pos].m = m;
                gs->g[pos].n = 0;
                found = pos;
                gs->ng[k]++;
            }
            gs->g[found].ids[gs->g[found].n++] = hand[a];
        }
        total += gs->ng[k];
        i = j;
    }
}

#define MAXCAND 32
#define MAXWAYS 1024
typedef struct {
    int ncand, nways, overflow;
    uint8_t kind[MAXCAND];
    uint8_t gi[MAXCAND]; /* group index */
    uint8_t ways[MAXWAYS][MAXCAND];
} SlotWays;

/* choose(): ways to take count cards from groups of the given sizes, in the core's order. */
static void choose_rec(const int *sizes, int ng, int i, int count, uint8_t *cur, SlotWays *sw) {
    if (i == ng) {
        if (count != 0) return;
        if (sw->nways < MAXWAYS)
            memcpy(sw->ways[sw->nways++], cur, MAXCAND);
        else
            sw->overflow = 1;
        return;
    }
    int left = 0;
    for (int j = i + 1; j < ng; j++) left += sizes[j];
    int lo = count - left > 0 ? count - left : 0, hi = sizes[i] < count ? sizes[i] : count;
    for (int t = lo; t <= hi; t++) {
        cur[i] = (uint8_t)t;
        choose_rec(sizes, ng, i + 1, count - t, cur, sw);
    }
}

static int same_refs(const State *st, const Move *a, const Move *b, const Config *cfg) {
    if (a->meld != b->meld || a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++)
        if (KIND(cfg, a->ids[i]) != KIND(cfg, b->ids[i]) || !mask_eq(st->mask[a->ids[i]], st->mask[b->ids[i]]))
            return 0;
    return 1;
}

/* sequence_needs_marriage (Deal._on_marriage): a trump sequence takes the K and Q of the
 * declarer's own royal marriage on the table (cards like the ones chosen); 0 if there is none. */
static int on_marriage(const State *st, const Config *cfg, int seat, Move *mv) {
    int trump = st->trump < 0 ? 0 : st->trump, ki = -1, qi = -1;
    for (int i = 0; i < mv->n; i++) {
        int k = KIND(cfg, mv->ids[i]);
        if (k == trump * 8 + RANK_KING) ki = i;
        if (k == trump * 8 + RANK_QUEEN) qi = i;
    }
    if (ki < 0 || qi < 0) return 0;
    int king = mv->ids[ki], queen = mv->ids[qi];
    for (int i = 0; i < st->ninst; i++) {
        const Inst *in = &st->inst[i];
        if (in->seat != seat || in->meld != M_ROYAL_MARRIAGE) continue;
        int k = in->ids[0], q = in->ids[1];
        if (KIND(cfg, k) != KIND(cfg, king)) {
            k = in->ids[1];
            q = in->ids[0];
        }
        if (KIND(cfg, k) == KIND(cfg, king) && mask_eq(st->mask[k], st->mask[king]) &&
            mask_eq(st->mask[q], st->mask[queen])) {
            mv->ids[ki] = (uint16_t)k;
            mv->ids[qi] = (uint16_t)q;
            return 1;
        }
    }
    return 0;
}

static int enumerate_melds(const State *st, const Config *cfg, int seat, const PlanItem **possible, int np,
                           Move *out, int n, int max) {
    Groups gs;
    uint64_t need = 1ULL << WILD_KIND; /* the kinds the items take, and a wild card */
    for (int p = 0; p < np; p++) need |= possible[p]->takes;
    make_groups(st, cfg, seat, &gs, need);
    static _Thread_local SlotWays sws[5];
    for (int p = 0; p < np; p++) {
        const PlanItem *it = possible[p];
        int ok = 1;
        for (int s = 0; s < it->nslots; s++) {
            const Slot *sl = &it->slots[s];
            SlotWays *sw = &sws[s];
            sw->ncand = 0;
            sw->nways = 0;
            sw->overflow = 0;
            for (int a = 0; a < sl->nk; a++) {
                int k = sl->kinds[a];
                for (int g = 0; g < gs.ng[k]; g++) {
                    const Group *gr = &gs.g[gs.first[k] + g];
                    if ((gr->m.lo & it->block.lo) || (gr->m.hi & it->block.hi)) continue;
                    if (sw->ncand >= MAXCAND) return -1;
                    sw->kind[sw->ncand] = (uint8_t)k;
                    sw->gi[sw->ncand++] = (uint8_t)(gs.first[k] + g);
                }
            }
            if (gs.ng[WILD_KIND] && (cfg->wild_ok >> it->meld & 1)) {
                /* a wild card may stand in for a card of this meld; with once-per-kind reuse
                   only one that has scored in no meld yet */
                for (int g = 0; g < gs.ng[WILD_KIND]; g++) {
                    const Group *gr = &gs.g[gs.first[WILD_KIND] + g];
                    if (cfg->wild_once ? HAS_MASK(gr->m) != 0
                                       : ((gr->m.lo & it->block.lo) || (gr->m.hi & it->block.hi)))
                        continue;
                    if (sw->ncand >= MAXCAND) return -1;
                    sw->kind[sw->ncand] = WILD_KIND;
                    sw->gi[sw->ncand++] = (uint8_t)(gs.first[WILD_KIND] + g);
                }
            }
            uint8_t cur[MAXCAND] = {0};
            if (sw->ncand == 1) {
                if (gs.g[sw->gi[0]].n >= sl->n) {
                    cur[0] = sl->n;
                    memcpy(sw->ways[0], cur, MAXCAND);
                    sw->nways = 1;
                }
            } else {
                int sizes[MAXCAND];
                for (int a = 0; a < sw->ncand; a++) sizes[a] = gs.g[sw->gi[a]].n;
                choose_rec(sizes, sw->ncand, 0, sl->n, cur, sw);
                if (sw->overflow) return -1;
            }
            if (!sw->nways) {
                ok = 0;
                break;
            }
        }
        if (!ok) continue;
        int idx[5] = {0};
        for (;;) {
            Move mv;
            mv.type = MV_MELD;
            mv.meld = it->meld;
            mv.n = 0;
            int fresh = 0, wilds = 0, shown = 0;
            for (int s = 0; s < it->nslots; s++) {
                const SlotWays *sw = &sws[s];
                const uint8_t *takes = sw->ways[idx[s]];
                for (int a = 0; a < sw->ncand; a++) {
                    const Group *gr = &gs.g[sw->gi[a]];
                    if (mv.n + takes[a] > MAXMC) return -1;
                    for (int t = 0; t < takes[a]; t++) mv.ids[mv.n++] = gr->ids[t];
                    if (takes[a]) {
                        int ghost = (int)((gr->m.hi >> it->meld) & 1);
                        if (!HAS_MASK(gr->m)) {
                            fresh = 1;
                        } else {
                            shown = 1; /* a card that has scored already */
                            fresh |= ghost;
                        }
                        if (sw->kind[a] == WILD_KIND) wilds += takes[a];
                    }
                }
            }
            if (fresh && it->meld == M_FOUR_WILD_CARDS) {
                if (cfg->wild_once && shown) fresh = 0; /* each wild card scores in one meld */
            } else if (fresh && (wilds > 1 || mv.n == wilds)) {
                fresh = 0; /* one wild card a meld, and never a meld of wild cards alone */
            }
            if (fresh && it->meld == M_TRUMP_SEQUENCE && cfg->seq_marriage && !on_marriage(st, cfg, seat, &mv))
                fresh = 0;
            if (fresh) {
                int dup = -1;
                for (int j = 0; j < n; j++)
                    if (out[j].type == MV_MELD && same_refs(st, &out[j], &mv, cfg)) {
                        dup = j;
                        break;
                    }
                if (dup >= 0) {
                    out[dup] = mv; /* a dict keeps the first place and the last value */
                } else {
                    if (n >= max) return -1;
                    out[n++] = mv;
                }
            }
            int s = it->nslots - 1;
            while (s >= 0 && ++idx[s] == sws[s].nways) idx[s--] = 0;
            if (s < 0) break;
        }
    }
    return n;
}

/* Whether a hand holds the cards a plan item needs (have[j]: the kinds held j times or more). */
static inline int plan_held(const PlanItem *it, const uint64_t *have, const uint8_t *by_rank) {
    if ((have[1] & it->quick) != it->quick) return 0;
    for (int a = 0; a < it->nneeds; a++)
        if ((have[it->need_n[a]] & it->need_kinds[a]) != it->need_kinds[a]) return 0;
    for (int a = 0; a < it->nrank; a++)
        if (by_rank[it->rank_r[a]] < it->rank_n[a]) return 0;
    return 1;
}

/* declare_moves past its first test: melds from the candidate items cand (all == 1: every item
 * of the plan), then the exchange, partner and pass. */
int declare_more(const State *st, const Config *cfg, int seat, Move *out, int max, uint64_t cand, int all, int may_meld,
                 int room) {
    int n = 0, trump = st->trump, pi = trump < 0 ? 4 : trump;
    const uint16_t *hand = st->hand[seat];
    int hn = st->hn[seat];
    const uint64_t *have = st->khave[seat];
    const uint8_t *by_rank = st->krank[seat];
    const PlanItem *possible[MAXPLAN];
    int np = 0;
    if (all) {
        for (int p = 0; p < cfg->nplan[pi]; p++) possible[np++] = &cfg->plan[pi][p];
    } else if (cfg->plan_indexed[pi]) {
        for (; cand; cand &= cand - 1) { /* the items of the index, in plan order */
            const PlanItem *it = &cfg->plan[pi][__builtin_ctzll(cand)];
            if (plan_held(it, have, by_rank)) possible[np++] = it;
        }
    } else if (room && may_meld) {
        for (int p = 0; p < cfg->nplan[pi]; p++)
            if (plan_held(&cfg->plan[pi][p], have, by_rank)) possible[np++] = &cfg->plan[pi][p];
    }
    if (np && !all) {
        /* a meld is new only if it takes a card not declared yet or one broken off this
           meld (the test of "fresh" in enumerate_melds): items with no such card are left out
           before the cards are grouped */
        uint64_t bare = have[1], ghosts = 0; /* nothing declared: every kind is bare */
        if (st->ntable[seat]) {
            bare = 0;
            for (int i = 0; i < hn; i++) {
                Mask m = st->mask[hand[i]];
                if (!HAS_MASK(m)) bare |= 1ULL << KIND(cfg, hand[i]);
                ghosts |= m.hi;
            }
        }
        int keep = 0;
        for (int p = 0; p < np; p++)
            if ((possible[p]->takes & bare) || (ghosts >> possible[p]->meld & 1)) possible[keep++] = possible[p];
        np = keep;
    }
    if (np) {
        n = enumerate_melds(st, cfg, seat, possible, np, out, n, max);
        if (n < 0) return -1;
    }
    /* the card held is the rarest condition: tested first */
    if (cfg->exch_rank >= 0 && trump >= 0 && (have[1] >> (trump * 8 + cfg->exch_rank) & 1) &&
        (cfg->exch_rank != RANK_SEVEN || cfg->seven_pts) && st->turn_up >= 0 && !st->exched &&
        (may_meld || cfg->exch_before) && (room || !cfg->exch_counts) &&
        KIND(cfg, st->turn_up) != trump * 8 + cfg->exch_rank) {
        int card = trump * 8 + cfg->exch_rank;
        for (int i = 0; i < hn; i++)
            if (KIND(cfg, hand[i]) == card && !HAS_MASK(st->mask[hand[i]])) {
                if (n >= max) return -1;
                out[n].type = MV_EXCH;
                out[n].meld = 0;
                out[n].n = 1;
                out[n++].ids[0] = hand[i];
                break;
            }
    }
    if (cfg->partner_or && cfg->partnerships && may_meld && seat == st->leader && !st->decl && !st->exched) {
        if (n >= max) return -1;
        out[n].type = MV_PARTNER;
        out[n].meld = 0;
        out[n++].n = 0;
    }
    if (n) {
        if (n >= max) return -1;
        out[n].type = MV_PASS;
        out[n].meld = 0;
        out[n++].n = 0;
    }
    return n;
}


