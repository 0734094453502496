/* The default policies of the compiled search: the plain and 'meld' policies (the search
   players' playout policy), the 'smart' one (the heuristic player's rules of thumb) and its
   learned terms (bezique.fast.smart). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#include "search.h"

/* --- the search players' default policy (bezique.bots.playout.playout_action), ported ---- */
static const double POWER[8] = {3.0, 2.5, 1.5, 1.2, 1.0, 0.5, 0.25, 0.0};
#define TRUMP_POWER 4.0

static double uniform(Rng *rng) { return (double)(rng_next(rng) >> 11) * (1.0 / 9007199254740992.0); }

/* What the policy holds a wild card to be worth in melds (bots/playout.py _WILD_KEEP). */
#define WILD_KEEP 30.0

/* What kind k brings to a trick's winner in the policy's count (a wild card: nothing). */
static inline double card_pts(const Config *cfg, int k) { return k == WILD_KIND ? 0.0 : cfg->pol_rank[k & 7]; }

static double meld_bonus(const Config *cfg, int ti, int t, int k, const int *held, const int *by_rank) {
    if (k == WILD_KIND) return WILD_KEEP;
    int r = k & 7, s = k >> 3;
    double bonus = 0.0;
    if (r == 2 || r == 3) { /* king, queen */
        int other = r == 2 ? held[k + 1] : held[k - 1];
        bonus += cfg->pol_marriage[ti][s] * (other ? 0.5 : 0.12);
    }
    int q = cfg->pol_bez_q[ti], j = cfg->pol_bez_j[ti];
    if (q >= 0 && (k == q || k == j)) {
        int other = k == q ? held[j] : held[q];
        bonus += cfg->pol_bez1[ti] * (other ? 0.5 : 0.2);
        if (held[q] + held[j] >= 3) bonus += cfg->pol_bez2[ti] * 0.25;
    }
    double quartet = cfg->pol_quartet[ti][r];
    if (quartet != 0.0) {
        double c = by_rank[r] / 4.0;
        if (c > 1.0) c = 1.0;
        bonus += quartet * 0.6 * (c * c);
    }
    if (s == t && r <= 4 && cfg->pol_sequence[ti] != 0.0) {
        int m = 0;
        for (int rr = 0; rr < 5; rr++) m += held[s * 8 + rr] > 0;
        double f = m / 5.0;
        bonus += cfg->pol_sequence[ti] * 0.4 * (f * f);
    }
    return bonus;
}

/* For each candidate card, the points of the best declaration seat could make with the cards
   it keeps, were it to win this stage-1 trick. */
static void declare_best(const State *st, const Config *cfg, const Move *mv, int n, double *out) {
    static _Thread_local Move dbuf[MAXMOVES];
    int nd = declare_moves(st, cfg, st->to_move, dbuf, MAXMOVES);
    for (int i = 0; i < n && i < MAXH * 4; i++) {
        int c = mv[i].ids[0];
        double best = 0.0;
        for (int d = 0; d < nd; d++) {
            double v = dbuf[d].type == MV_MELD ? cfg->pol_declare[dbuf[d].meld] : dbuf[d].type == MV_EXCH ? cfg->pol_exchange : 0.0;
            if (v <= best) continue;
            int uses = 0;
            for (int j = 0; j < dbuf[d].n; j++) uses |= dbuf[d].ids[j] == c;
            if (!uses) best = v;
        }
        out[i] = best;
    }
}

/* What winning this stage-1 trick is worth to seat beyond its cards, for each candidate card:
   `half` of the points of the best declaration it could make with the cards it keeps, plus
   `base` (the heuristic player's _win_bonus: a half and one), instead of the flat 8 points of
   the plain policy. */
static void declare_bonus(const State *st, const Config *cfg, const Move *mv, int n, double half, double base,
                          double *out) {
    declare_best(st, cfg, mv, n, out);
    for (int i = 0; i < n && i < MAXH * 4; i++) out[i] = half * out[i] + base;
}

/* The index of the action the policy picks; explore: chance of a uniform pick; noisy: the
   small random tie-breaks of the Python policy (off to compare with it move for move);
   meld_aware: a stage-1 trick is worth the declaration its winner could make (declare_bonus),
   and losing it the 4 points the heuristic player charges (its opponent_declares). */
int heuristic_pick(const State *st, const Config *cfg, const Move *mv, int n, Rng *rng, double explore,
                          int noisy, int meld_aware) {
    if (n == 1) return 0;
    if (st->phase == PH_DECLARE) {
        int best = 0;
        double best_v = -1.0;
        for (int i = 0; i < n; i++) {
            double v = mv[i].type == MV_MELD ? cfg->pol_declare[mv[i].meld] : mv[i].type == MV_EXCH ? cfg->pol_exchange : 0.0;
            if (v > best_v) {
                best = i;
                best_v = v;
            }
        }
        return best;
    }
    if (explore > 0.0 && uniform(rng) < explore) return (int)rng_below(rng, (uint32_t)n);
    int t = st->trump, ti = t < 0 ? 4 : t, seat = st->to_move, stage1 = st->stage == 1;
    int held[NK] = {0}, by_rank[8] = {0};
    if (stage1)
        for (int i = 0; i < st->hn[seat]; i++) {
            int k = cfg->kind_of[st->hand[seat][i]];
            held[k]++;
            if (k != WILD_KIND) by_rank[k & 7]++;
        }
    double keeps[MAXH * 4];
    for (int i = 0; i < n && i < MAXH * 4; i++) {
        int c = mv[i].ids[0], k = cfg->kind_of[c];
        double keep = k == WILD_KIND ? 0.0 : POWER[k & 7] + ((k >> 3) == t ? TRUMP_POWER : 0.0);
        if (stage1) {
            double bonus = meld_bonus(cfg, ti, t, k, held, by_rank);
            if (st->mask[c].lo | st->mask[c].hi) bonus *= 0.3; /* a declared copy has scored already */
            keep += bonus;
        }
        keeps[i] = keep + (noisy ? 0.01 * uniform(rng) : 0.0);
    }
    int choice = 0;
    double best_v = -1e9;
    if (!st->tn) {
        for (int i = 0; i < n; i++) {
            int k = cfg->kind_of[mv[i].ids[0]];
            double v = -keeps[i] - (stage1 ? 0.5 * card_pts(cfg, k) : 0.0);
            if (v > best_v) {
                best_v = v;
                choice = i;
            }
        }
        return choice;
    }
    int win_seat = st->tseat[0], win = cfg->kind_of[st->tcard[0]];
    double points = cfg->pol_per_trick + card_pts(cfg, win);
    for (int i = 1; i < st->tn; i++) {
        int k = cfg->kind_of[st->tcard[i]];
        points += card_pts(cfg, k);
        if (st_beats(k, win, t, cfg->lead_wins)) {
            win = k;
            win_seat = st->tseat[i];
        }
    }
    int partner_wins = (cfg->partnerships ? win_seat % 2 : win_seat) == (cfg->partnerships ? seat % 2 : seat);
    int last = st->tn == cfg->active - 1;
    double held_on = last ? 1.0 : 0.6, win_extra = stage1 ? 8.0 : 0.0, lose_extra = win_extra;
    double bonus[MAXH * 4];
    int aware = meld_aware && stage1;
    if (aware) {
        declare_bonus(st, cfg, mv, n, 0.5, 1.0, bonus);
        lose_extra = 4.0;
    }
    for (int i = 0; i < n; i++) {
        int k = cfg->kind_of[mv[i].ids[0]];
        double mine = card_pts(cfg, k), keep = keeps[i], v;
        if (aware) win_extra = bonus[i];
        if (partner_wins)
            v = (last ? mine : 0.0) - keep;
        else if (st_beats(k, win, t, cfg->lead_wins))
            v = held_on * (points + mine + win_extra) - (1 - held_on) * (points + mine) - keep;
        else
            v = -(points + mine + lose_extra) - keep;
        if (v > best_v) {
            best_v = v;
            choice = i;
        }
    }
    return choice;
}

/* --- the 'smart' policy: the heuristic player's stage-1 rules of thumb (bots/heuristic.py) --- */
/* Its weights, by the SP_ names of search.h (bezique.fast.SMART_PARAMS describes each): these
   are the heuristic player's; a tuned set may be passed instead (pimc, duel). */
const double SMART_DEFAULT[SMART_NPARAM] = {
    7.0, 5.0, 3.0, 2.5, 2.0, 1.0, 0.5, 0.0, /* keep value of a plain card by rank, A T K Q J 9 8 7 */
    8.0,                                    /* trump: a trump keeps trump + 7 - rank */
    0.7,                                    /* meld: weight of the meld points a card may still bring */
    0.7,                                    /* exchange: weight of the turn-up taken by the exchange card */
    4.0, 0.4, 2.0,                          /* late: trump, less rank x, ace; times the stock played, squared */
    0.5, 1.0,                               /* a trick won: declare x the best declaration + win_base */
    6.0,                                    /* the last trick of the stock */
    0.3,                                    /* lead risk: share of a led card's points expected lost */
    1.0,                                    /* what a lead that wins costs */
    4.0,                                    /* lose: letting another seat win (and declare) */
    0.5,                                    /* hold: chance a winning follow holds when others play after */
};

/* Copies of each kind whose place the seat to move does not know: not in its hand, not played,
   not on a table or otherwise shown, not in the trick, not the turn-up. */
static int unseen_counts(const State *st, const Config *cfg, int seat, int *unseen) {
    for (int k = 0; k < NK; k++) unseen[k] = cfg->count[k] - st->played[k];
    for (int s = 0; s < cfg->players; s++)
        for (int i = 0; i < st->hn[s]; i++) {
            int c = st->hand[s][i];
            if (s == seat || st->mask[c].lo | st->mask[c].hi || st->known[c]) unseen[cfg->kind_of[c]]--;
        }
    for (int i = 0; i < st->tn; i++) unseen[cfg->kind_of[st->tcard[i]]]--;
    if (st->turn_up >= 0) unseen[cfg->kind_of[st->turn_up]]--;
    int total = 0;
    for (int k = 0; k < NK; k++) {
        if (unseen[k] < 0) unseen[k] = 0;
        total += unseen[k];
    }
    return total;
}

static int beaters_of(const int *unseen, int k, int t) {
    int s = k >> 3, r = k & 7, n = 0;
    if (k == WILD_KIND) return 0; /* the smart policy leaves wild-card rules to the plain one */
    for (int rr = 0; rr < r; rr++) n += unseen[s * 8 + rr];
    if (t >= 0 && s != t)
        for (int rr = 0; rr < 8; rr++) n += unseen[t * 8 + rr];
    return n;
}

/* One plan item's count of the seat's holdings, no card set aside: per slot the cards that
   count toward it and the unseen cards that could fill it, and how many (slot, card) pairs
   count with a card not yet declared; base is its chance (NAN: not yet worked out). */
typedef struct {
    double base;
    int have[5], avail[5], freshn;
} ItemCount;

/* What one smart_values call works out once and reads many times: (1 - q) to the power n, and
   each plan item's counts, for one q and one seat's holdings.  The values are those the plain
   computation gives, in the same order, so the choices are the same to the bit. */
typedef struct {
    double rest[MAXC + 1];
    ItemCount item[MAXPLAN];
} MeldCache;

static void meld_cache_init(MeldCache *mc, int total, int nplan) {
    for (int n = 0; n <= total; n++) mc->rest[n] = NAN; /* avail never exceeds the unseen cards */
    for (int p = 0; p < nplan; p++) mc->item[p].base = NAN;
}

/* Chance of drawing at least miss of avail wanted cards, each with chance q (view._at_least). */
static double at_least(int miss, int avail, double q, MeldCache *mc) {
    if (q <= 0.0) return 0.0;
    if (q >= 1.0) return 1.0;
    double rest = mc->rest[avail];
    if (isnan(rest)) rest = mc->rest[avail] = pow(1.0 - q, avail);
    double below = 0.0, c = 1.0, qk = 1.0;
    for (int k = 0; k < miss; k++) { /* P(exactly k), k < miss */
        below += c * qk * rest;
        c = c * (avail - k) / (k + 1);
        qk *= q;
        rest /= 1.0 - q;
    }
    return below >= 1.0 ? 0.0 : 1.0 - below;
}

/* The chance (roughly) that holdings with these counts can yet be made into the meld and
   declared (View.meld_chance): have[a] of slot a's cards held, `fresh` whether any of them is
   not yet declared. */
static double counts_chance(const PlanItem *it, const int *have, const int *avail, int fresh, double q,
                            MeldCache *mc) {
    double chance = 1.0;
    int missing = 0;
    for (int a = 0; a < it->nslots; a++) {
        int miss = it->slots[a].n - have[a];
        if (miss > 0) {
            if (avail[a] < miss) return 0.0;
            chance *= at_least(miss, avail[a], q, mc);
            missing += miss;
            if (chance == 0.0) return 0.0;
        }
    }
    return !missing && !fresh ? 0.0 : chance;
}

/* Whether card c (of kind k) counts toward slot sl of the item: a kind the slot takes, and not
   declared in a meld that blocks this one. */
static int counts_in(const PlanItem *it, const Slot *sl, const State *st, int c, int k) {
    for (int j = 0; j < sl->nk; j++)
        if (sl->kinds[j] == k) {
            Mask m = st->mask[c];
            return !((m.lo & it->block.lo) | (m.hi & it->block.hi));
        }
    return 0;
}

/* The item's counts over the seat's whole holdings, and its chance with no card set aside. */
static const ItemCount *item_count(MeldCache *mc, int p, const PlanItem *it, const State *st, const Config *cfg,
                                   int seat, const int *unseen, double q) {
    ItemCount *ic = &mc->item[p];
    if (!isnan(ic->base)) return ic;
    ic->freshn = 0;
    for (int a = 0; a < it->nslots; a++) {
        const Slot *sl = &it->slots[a];
        ic->have[a] = ic->avail[a] = 0;
        for (int i = 0; i < st->hn[seat]; i++) {
            int c = st->hand[seat][i];
            if (counts_in(it, sl, st, c, cfg->kind_of[c])) {
                ic->have[a]++;
                ic->freshn += !(st->mask[c].lo | st->mask[c].hi);
            }
        }
        for (int j = 0; j < sl->nk; j++) ic->avail[a] += unseen[sl->kinds[j]];
    }
    ic->base = counts_chance(it, ic->have, ic->avail, ic->freshn > 0, q, mc);
    return ic;
}

/* What the seat's chance of plan item p is worth less without its card c (of kind k), in meld
   points. */
static inline double item_loss(const State *st, const Config *cfg, int seat, int pi, int p, int c, int k,
                               const int *unseen, double q, MeldCache *mc) {
    const PlanItem *it = &cfg->plan[pi][p];
    const ItemCount *ic = item_count(mc, p, it, st, cfg, seat, unseen, q);
    int undeclared = !(st->mask[c].lo | st->mask[c].hi), have[5], freshn = ic->freshn, in_any = 0;
    for (int a = 0; a < it->nslots; a++) {
        int in = counts_in(it, &it->slots[a], st, c, k);
        have[a] = ic->have[a] - in;
        freshn -= in && undeclared;
        in_any |= in;
    }
    double without = in_any ? counts_chance(it, have, ic->avail, freshn > 0, q, mc) : ic->base;
    return (double)cfg->meld_score[it->meld] * (ic->base - without);
}

/* The meld points the seat loses, in expectation, by parting with card c (View.meld_value of
   its holdings with and without it, over the melds that need its kind), item by item in the
   plan's order.  c is one of the seat's cards (its hand holds its declared cards too). */
static double meld_loss(const State *st, const Config *cfg, int seat, int c, const int *unseen, double q,
                        MeldCache *mc) {
    int k = cfg->kind_of[c], pi = st->trump < 0 ? 4 : st->trump;
    double loss = 0.0;
    if (cfg->plan_indexed[pi]) /* the items that take this kind, found by their bits */
        for (uint64_t b = cfg->plan_taking[pi][k]; b; b &= b - 1)
            loss += item_loss(st, cfg, seat, pi, __builtin_ctzll(b), c, k, unseen, q, mc);
    else
        for (int p = 0; p < cfg->nplan[pi]; p++)
            if (cfg->plan[pi][p].takes >> k & 1)
                loss += item_loss(st, cfg, seat, pi, p, c, k, unseen, q, mc);
    return loss;
}

/* Where the 'smart' rules apply: a stage-1 card to play, two hands, no wild card. */
static int smart_applies(const State *st, const Config *cfg, int n) {
    return st->phase != PH_DECLARE && st->stage == 1 && cfg->players == 2 && !cfg->wild && n <= MAXH * 4;
}

/* The learned terms' features of one candidate card (bezique.fast.smart.LEARNED_FEATURES names
   them, in this order). */
typedef struct {
    int r, trump, lead, beats, declared, copies, unseen, suit, exch, lead_brisque, last;
    double frac, ml, safe, pts, best, card;
} Cand;

static void learned_features(const Cand *c, double *f) {
    memset(f, 0, sizeof(double) * SMART_NLEARN);
    int follow_win = !c->lead && c->beats, follow_lose = !c->lead && !c->beats;
    f[(c->trump ? 8 : 0) + c->r] = 1.0;
    f[(c->trump ? 24 : 16) + c->r] = c->frac;
    f[32] = c->ml;
    f[33] = c->ml * c->frac;
    f[34] = c->lead;
    f[35] = c->lead * c->safe;
    f[36] = c->lead * c->safe * c->best;
    f[37] = c->lead * (1.0 - c->safe) * c->card;
    f[38] = c->lead * c->frac;
    f[39] = follow_win;
    f[40] = follow_win * c->pts;
    f[41] = follow_win * c->best;
    f[42] = follow_lose * c->pts;
    f[43] = c->declared;
    f[44] = c->copies;
    f[45] = c->unseen;
    f[46] = c->suit;
    f[47] = c->last * (c->lead ? c->safe : (double)c->beats);
    f[48] = c->exch;
    f[49] = follow_win * c->trump;
    f[50] = c->lead * (c->r <= 1);
    f[51] = follow_win * c->lead_brisque;
    f[52] = follow_lose * c->frac;
    f[53] = follow_win * c->frac;
    f[54] = c->lead * c->trump * c->frac;
    f[55] = c->lead * c->ml;
}

/* What the network adds to a card's value: its units over the rules' value (the learned terms
   left out) and the learned features (most of them 0, so skipped: the one-hot rank and trump, the leads or follows). */
static double net_value(const double *w, const double *b, const double *u, double value, const double *f) {
    int nz[SMART_NLEARN], m = 0;
    for (int j = 0; j < SMART_NLEARN; j++)
        if (f[j] != 0.0) nz[m++] = j;
    double out = 0.0;
    for (int h = 0; h < SMART_NHIDDEN; h++) {
        if (u[h] == 0.0) continue;
        const double *wh = w + h * SMART_NIN;
        double a = b[h] + wh[0] * value;
        for (int i = 0; i < m; i++) a += wh[1 + nz[i]] * f[nz[i]];
        if (a > 0.0) out += u[h] * a;
    }
    return out;
}

/* The 'smart' value of each candidate card (the heuristic player's rules of thumb, read off the
   state as the seat to move sees it: keep values from trick power, the meld points a card may
   still bring, trumps and aces kept for the end of the stock; leads that are safe to win a
   wanted trick; follows that win when the trick and the declaration it opens are worth the
   card), plus the learned terms where sp has any; feat (NULL: not wanted) gets each
   candidate's SMART_NLEARN features.  Only where smart_applies. */
static void smart_values(const State *st, const Config *cfg, const Move *mv, int n, Rng *rng, int noisy,
                         const double *sp, double *v, double *feat) {
    int t = st->trump, seat = st->to_move;
    int held[NK] = {0}, by_rank[8] = {0}, by_suit[4] = {0}, unseen[NK];
    for (int i = 0; i < st->hn[seat]; i++) {
        int k = cfg->kind_of[st->hand[seat][i]];
        held[k]++;
        by_rank[k & 7]++;
        by_suit[k >> 3]++;
    }
    int learned = 0, net = 0;
    for (int j = 0; j < SMART_NLEARN; j++) learned |= sp[SP_LEARN + j] != 0.0;
    const double *net_w = sp + SP_NET, *net_b = net_w + SMART_NHIDDEN * SMART_NIN, *net_u = net_b + SMART_NHIDDEN;
    for (int h = 0; h < SMART_NHIDDEN; h++) net |= net_u[h] != 0.0;
    int total = unseen_counts(st, cfg, seat, unseen);
    int full = cfg->ncards - cfg->players * cfg->hand_size;
    int stock = st->nstock + (st->turn_up >= 0);
    double frac = full > 0 ? 1.0 - (double)stock / full : 1.0, late = frac * frac;
    double q = total ? fmin(1.0, (double)stock / cfg->players / total) : 0.0;
    int exch = cfg->exch_rank >= 0 && st->turn_up >= 0 && t >= 0 && cfg->kind_of[st->turn_up] != t * 8 + cfg->exch_rank;
    int upk = st->turn_up >= 0 ? cfg->kind_of[st->turn_up] : 0;
    double up_power = (upk >> 3) == t ? sp[SP_TRUMP] + 7 - (upk & 7) : sp[SP_POWER + (upk & 7)];
    double best[MAXH * 4], keeps[MAXH * 4], mls[MAXH * 4];
    MeldCache mc;
    meld_cache_init(&mc, total, cfg->nplan[t < 0 ? 4 : t]);
    declare_best(st, cfg, mv, n, best);
    double last_extra = stock <= cfg->players ? sp[SP_LAST_TRICK] : 0.0;
    for (int i = 0; i < n; i++) {
        int c = mv[i].ids[0], k = cfg->kind_of[c], r = k & 7;
        double keep = (t >= 0 && k >> 3 == t) ? sp[SP_TRUMP] + 7 - r : sp[SP_POWER + r];
        mls[i] = meld_loss(st, cfg, seat, c, unseen, q, &mc);
        keep += sp[SP_MELD] * mls[i];
        if (exch && k == t * 8 + cfg->exch_rank && !(st->mask[c].lo | st->mask[c].hi))
            keep += sp[SP_EXCHANGE] * up_power; /* the card that takes the turn-up */
        if (t >= 0 && k >> 3 == t)
            keep += late * (sp[SP_LATE_TRUMP] - sp[SP_LATE_TRUMP_RANK] * r);
        else if (r == 0)
            keep += late * sp[SP_LATE_ACE];
        keeps[i] = keep + (noisy ? 0.01 * uniform(rng) : 0.0);
    }
    int others = 0;
    for (int s = 0; s < cfg->players; s++)
        if (s != seat) others += st->hn[s];
    int win_seat = -1, win = -1, lead_k = -1;
    double points = 0.0;
    if (st->tn) {
        win_seat = st->tseat[0];
        win = lead_k = cfg->kind_of[st->tcard[0]];
        points = cfg->pol_per_trick + cfg->pol_rank[win & 7];
        for (int i = 1; i < st->tn; i++) {
            int k = cfg->kind_of[st->tcard[i]];
            points += cfg->pol_rank[k & 7];
            if (st_beats(k, win, t, cfg->lead_wins)) {
                win = k;
                win_seat = st->tseat[i];
            }
        }
    }
    int last = st->tn == cfg->active - 1;
    for (int i = 0; i < n; i++) {
        int c = mv[i].ids[0], k = cfg->kind_of[c];
        double wins = sp[SP_DECLARE] * best[i] + sp[SP_WIN_BASE] + last_extra;
        Cand cd = {.r = k & 7, .trump = t >= 0 && k >> 3 == t, .lead = !st->tn, .frac = frac, .ml = mls[i],
                   .best = best[i], .card = cfg->pol_rank[k & 7]};
        if (!st->tn) {
            double risk = sp[SP_LEAD_RISK] * cfg->pol_rank[k & 7];
            cd.safe = total ? pow(fmax(0.0, 1.0 - (double)beaters_of(unseen, k, t) / total), others) : 1.0;
            v[i] = -keeps[i] - risk * (1 - cd.safe) + cd.safe * (wins - sp[SP_LEAD_WIN_COST]);
        } else {
            cd.pts = points + cfg->pol_rank[k & 7];
            cd.beats = st_beats(k, win, t, cfg->lead_wins);
            if (cd.beats || win_seat == seat) {
                double hold = last || beaters_of(unseen, k, t) == 0 ? 1.0 : sp[SP_HOLD];
                v[i] = hold * (cd.pts + wins) - (1 - hold) * (cd.pts + sp[SP_LOSE]) - keeps[i];
            } else
                v[i] = -(cd.pts + sp[SP_LOSE]) - keeps[i];
        }
        if (!learned && !net && !feat) continue;
        cd.declared = (st->mask[c].lo | st->mask[c].hi) != 0;
        cd.copies = held[k] - 1;
        cd.unseen = unseen[k];
        cd.suit = by_suit[k >> 3] - 1;
        cd.exch = exch && k == t * 8 + cfg->exch_rank && !cd.declared;
        cd.lead_brisque = lead_k >= 0 && (lead_k & 7) <= 1;
        cd.last = stock <= cfg->players;
        double f[SMART_NLEARN];
        learned_features(&cd, f);
        if (feat) memcpy(feat + (size_t)i * SMART_NLEARN, f, sizeof(f));
        double rules_value = v[i];
        if (learned) {
            /* of features 0-31 (rank by trump or not, and that times the stage) two are set;
               the others' terms are 0 and would change nothing */
            int one = (cd.trump ? 8 : 0) + cd.r, staged = one + 16;
            v[i] += sp[SP_LEARN + one] * f[one];
            v[i] += sp[SP_LEARN + staged] * f[staged];
            for (int j = 32; j < SMART_NLEARN; j++) v[i] += sp[SP_LEARN + j] * f[j];
        }
        if (net) v[i] += net_value(net_w, net_b, net_u, rules_value, f);
    }
}

int smart_pick(const State *st, const Config *cfg, const Move *mv, int n, Rng *rng, double explore, int noisy,
               const double *sp) {
    if (!smart_applies(st, cfg, n)) return heuristic_pick(st, cfg, mv, n, rng, explore, noisy, 1);
    if (n == 1) return 0;
    if (explore > 0.0 && uniform(rng) < explore) return (int)rng_below(rng, (uint32_t)n);
    double v[MAXH * 4];
    smart_values(st, cfg, mv, n, rng, noisy, sp, v, NULL);
    int choice = 0;
    for (int i = 1; i < n; i++)
        if (v[i] > v[choice]) choice = i;
    return choice;
}

/* One policy's pick (explore and noise as play_out gives them). */
int policy_pick(const State *st, const Config *cfg, const Move *mv, int n, Rng *rng, int policy) {
    int noisy = policy == POLICY_HEURISTIC || policy == POLICY_MELD || policy == POLICY_SMART;
    if (policy == POLICY_RANDOM) return (int)rng_below(rng, (uint32_t)n);
    if (policy >= POLICY_SMART) return smart_pick(st, cfg, mv, n, rng, noisy ? 0.1 : 0.0, noisy, SMART_DEFAULT);
    return heuristic_pick(st, cfg, mv, n, rng, noisy ? 0.1 : 0.0, noisy, policy >= POLICY_MELD);
}

/* The playout policy's own choice with no random move and no noise (the prior of ismcts.c). */
int policy_choice(const State *st, const Config *cfg, const Move *mv, int n, int style) {
    Rng unused;
    rng_seed(&unused, 1); /* neither policy draws with explore and noise off */
    return style >= 2 ? smart_pick(st, cfg, mv, n, &unused, 0.0, 0, SMART_DEFAULT)
                      : heuristic_pick(st, cfg, mv, n, &unused, 0.0, 0, style);
}

int smart_choice(const State *st, const Config *cfg, const Move *mv, int n, const double *sp) {
    Rng unused;
    rng_seed(&unused, 1); /* not drawn from with explore and noise off */
    return smart_pick(st, cfg, mv, n, &unused, 0.0, 0, sp);
}

/* The weights in seq (None: SMART_DEFAULT): the SP_LEARN rule weights, those and the SP_NET -
   SP_LEARN learned ones, or all SMART_NPARAM (those left out are 0), into out: 0, or -1 with an
   exception set. */
int smart_params(PyObject *seq, double *out) {
    if (seq == NULL || seq == Py_None) {
        memcpy(out, SMART_DEFAULT, sizeof(SMART_DEFAULT));
        return 0;
    }
    PyObject *fast = PySequence_Fast(seq, "the smart policy's weights must be a sequence of numbers");
    if (!fast) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (size != SP_LEARN && size != SP_NET && size != SMART_NPARAM) {
        PyErr_Format(PyExc_ValueError,
                     "the smart policy has %d weights (%d with its learned terms, %d with its network): got %zd",
                     SP_LEARN, SP_NET, SMART_NPARAM, size);
        Py_DECREF(fast);
        return -1;
    }
    memcpy(out, SMART_DEFAULT, sizeof(SMART_DEFAULT));
    for (int i = 0; i < size; i++) {
        double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (!isfinite(v)) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "the smart policy's weight %d is not a finite number", i);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return 0;
}


State *core_state(PyObject *o);
const Config *core_config(PyObject *o);

/* smart_features(params): None where the 'smart' rules do not choose (not a stage-1 card of two
   hands); else, for each legal action in order, its 'smart' value with these weights (learned
   terms included) and its SMART_NLEARN features, as (values, features). */
PyObject *search_methods_smart_features(PyObject *self, PyObject *args) {
    PyObject *params;
    if (!PyArg_ParseTuple(args, "O", &params)) return NULL;
    double sp[SMART_NPARAM];
    if (smart_params(params, sp) < 0) return NULL;
    const State *st = core_state(self);
    const Config *cfg = core_config(self);
    if (st->phase == PH_OVER || !cfg->pol_ready) Py_RETURN_NONE;
    static _Thread_local Move buf[MAXMOVES];
    int n = st_moves(st, cfg, buf, MAXMOVES);
    if (n <= 0 || !smart_applies(st, cfg, n)) Py_RETURN_NONE;
    double v[MAXH * 4], feat[MAXH * 4 * SMART_NLEARN];
    Rng unused;
    rng_seed(&unused, 1); /* not drawn from with noise off */
    smart_values(st, cfg, buf, n, &unused, 0, sp, v, feat);
    PyObject *values = PyList_New(n), *rows = PyList_New(n);
    for (int i = 0; values && rows && i < n; i++) {
        PyObject *row = PyList_New(SMART_NLEARN);
        if (!row) break;
        for (int j = 0; j < SMART_NLEARN; j++) PyList_SET_ITEM(row, j, PyFloat_FromDouble(feat[i * SMART_NLEARN + j]));
        PyList_SET_ITEM(rows, i, row);
        PyList_SET_ITEM(values, i, PyFloat_FromDouble(v[i]));
    }
    if (PyErr_Occurred()) {
        Py_XDECREF(values);
        Py_XDECREF(rows);
        return NULL;
    }
    return Py_BuildValue("(NN)", values, rows);
}
