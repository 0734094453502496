/* The learned evaluation of bezique.bots.value in C: its features read from the engine's state
 * for one seat, and its small network, so that a search can cut a playout short and score it.
 *
 * The features are those of bezique.bots.value.features(deal.observation(seat)), read from what
 * the seat sees in the state (tests/test_fast_value.py compares the two on whole deals).  The
 * network comes from Python as its folded layers (ValueModel.packed): the feature count, the
 * linear part and its bias, then per hidden unit its input weights, bias and output weight. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "engine_int.h"
#include "search.h"

/* Points a brisque (ace or ten) brings to the trick's winner where those are the only cards
   that score in tricks and they score alike; 0 elsewhere (the features count brisques from the
   trick points, since the state keeps no list of the cards each side won). */
static int64_t brisque_points(const Config *cfg) {
    int64_t b = cfg->kval[0];
    if (b <= 0) return 0;
    for (int k = 0; k < 32; k++)
        if (cfg->kval[k] != ((k & 7) <= 1 ? b : 0)) return 0;
    return cfg->kval[WILD_KIND] == 0 ? b : 0;
}

int value_supported(const Config *cfg) { return brisque_points(cfg) > 0 && cfg->sides >= 2; }

/* This side's value less the mean of the other sides'. */
static double rel(const double *v, int mine, int sides) {
    double others = 0.0;
    for (int s = 0; s < sides; s++)
        if (s != mine) others += v[s];
    return v[mine] - others / (sides - 1);
}

static int marriages(const int *held, int trump, int trumps) {
    int n = 0;
    for (int s = 0; s < 4; s++)
        if ((s == trump) == trumps) n += held[s * 8 + RANK_KING] < held[s * 8 + RANK_QUEEN] ? held[s * 8 + RANK_KING] : held[s * 8 + RANK_QUEEN];
    return n;
}

static int rank_total(const int *held, int r) { return held[r] + held[8 + r] + held[16 + r] + held[24 + r]; }

static int sequence(const int *held, int trump) {
    int n = 0;
    for (int r = 0; trump >= 0 && r < 5; r++) n += held[trump * 8 + r] > 0;
    return n;
}

/* The queen of spades and the jack of diamonds (bezique.core.cards: suits S H D C, ranks A T K
   Q J 9 8 7). */
static int beziques(const int *held) { return held[0 * 8 + RANK_QUEEN] < held[2 * 8 + 4] ? held[0 * 8 + RANK_QUEEN] : held[2 * 8 + 4]; }

void value_features(const State *st, const Config *cfg, int me, double *x) {
    int mine = side_of(cfg, me), sides = cfg->sides, trump = st->trump;
    int place[5][NK];
    memset(place, 0, sizeof(place));
    for (int s = 0; s < cfg->players; s++)
        for (int i = 0; i < st->hn[s]; i++) {
            int c = st->hand[s][i], k = KIND(cfg, c), ours = side_of(cfg, s) == mine;
            if (HAS_MASK(st->mask[c]))
                place[ours ? 1 : 2][k]++;
            else if (s == me)
                place[0][k]++;
            else if (!ours && st->known[c])
                place[2][k]++;
        }
    for (int k = 0; k < NK; k++) place[3][k] = st->played[k];
    for (int i = 0; i < st->tn; i++) place[3][KIND(cfg, st->tcard[i])]++;
    for (int k = 0; k < NK; k++) {
        int seen = place[0][k] + place[1][k] + place[2][k] + place[3][k] + (st->turn_up >= 0 && KIND(cfg, st->turn_up) == k);
        place[4][k] = cfg->count[k] > seen ? cfg->count[k] - seen : 0;
    }
    double tricks[MAXP] = {0}, brisq[MAXP] = {0}, pts[MAXP];
    int64_t p[MAXP], per_brisque = brisque_points(cfg);
    for (int s = 0; s < cfg->players; s++) tricks[side_of(cfg, s)] += st->won[s];
    for (int s = 0; s < sides; s++)
        brisq[s] = per_brisque ? (double)(st->pts[s][PART_TRICKS] - cfg->per_trick * (int64_t)tricks[s]) / (double)per_brisque : 0.0;
    st_points(st, cfg, p);
    for (int s = 0; s < sides; s++) pts[s] = (double)p[s];
    int full = cfg->ncards - cfg->players * cfg->hand_size;
    double left = full > 0 ? (double)st->nstock / full : 0.0;
    int held[NK], *theirs = place[2];
    for (int k = 0; k < NK; k++) held[k] = place[0][k] + place[1][k];
    int mover = st->to_move == me;
    double head[26] = {
        1.0,
        rel(pts, mine, sides) / 100.0,
        left,
        left * left,
        st->stage == 2,
        mover && st->phase == PH_PLAY,
        mover && st->phase == PH_PLAY && st->tn == 0,
        mover && st->phase == PH_DECLARE,
        rel(brisq, mine, sides),
        rel(tricks, mine, sides),
        st->turn_up >= 0,
        marriages(held, trump, 1),
        marriages(held, trump, 0),
        beziques(held),
        rank_total(held, 0),
        rank_total(held, RANK_KING),
        rank_total(held, RANK_QUEEN),
        rank_total(held, 4),
        sequence(held, trump),
        trump >= 0 && held[trump * 8 + RANK_SEVEN] > 0,
        rank_total(theirs, 0),
        rank_total(theirs, RANK_KING),
        rank_total(theirs, RANK_QUEEN),
        rank_total(theirs, 4),
        beziques(theirs),
        sequence(theirs, trump),
    };
    memcpy(x, head, sizeof(head));
    double *o = x + 26;
    memset(o, 0, sizeof(double) * 80);
    for (int pl = 0; pl < 5; pl++)
        for (int k = 0; k < 32; k++) /* a wild card has no rank to count it under */
            o[pl * 16 + ((k >> 3) == trump ? 0 : 8) + (k & 7)] += place[pl][k];
}

double value_eval(const State *st, const Config *cfg, const ValueNet *net, int seat) {
    double x[VALUE_NF];
    value_features(st, cfg, seat, x);
    const double *w = net->w;
    double y = w[VALUE_NF];
    for (int j = 0; j < VALUE_NF; j++) y += w[j] * x[j];
    const double *row = w + VALUE_NF + 1;
    for (int h = 0; h < net->nh; h++, row += VALUE_NF + 2) {
        double a = row[VALUE_NF];
        for (int j = 0; j < VALUE_NF; j++) a += row[j] * x[j];
        if (a > 0.0) y += row[VALUE_NF + 1] * a;
    }
    return y;
}

int value_net_of(const char *data, Py_ssize_t len, ValueNet *net) {
    Py_ssize_t n = len / (Py_ssize_t)sizeof(double);
    if (len % (Py_ssize_t)sizeof(double) || n < VALUE_NF + 1 || (n - VALUE_NF - 1) % (VALUE_NF + 2)) {
        PyErr_Format(PyExc_ValueError, "not the packed layers of a value model of %d features", VALUE_NF);
        return -1;
    }
    net->w = malloc((size_t)len);
    if (!net->w) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(net->w, data, (size_t)len);
    net->nh = (int)((n - VALUE_NF - 1) / (VALUE_NF + 2));
    return 0;
}

State *core_state(PyObject *o);
const Config *core_config(PyObject *o);

/* value(seat[, packed]): the features of seat's view (a list), or with a packed model
   (ValueModel.packed) its value for seat's side. */
PyObject *search_methods_value(PyObject *self, PyObject *args) {
    int seat;
    const char *data = NULL;
    Py_ssize_t len = 0;
    if (!PyArg_ParseTuple(args, "i|y#", &seat, &data, &len)) return NULL;
    const State *st = core_state(self);
    const Config *cfg = core_config(self);
    if (seat < 0 || seat >= cfg->players) return PyErr_Format(PyExc_ValueError, "no seat %d", seat);
    if (!value_supported(cfg))
        return PyErr_Format(PyExc_ValueError, "the value features need rules where only aces and tens score in tricks");
    if (data) {
        ValueNet net;
        if (value_net_of(data, len, &net) < 0) return NULL;
        double v = value_eval(st, cfg, &net, seat);
        free(net.w);
        return PyFloat_FromDouble(v);
    }
    double x[VALUE_NF];
    value_features(st, cfg, seat, x);
    PyObject *out = PyList_New(VALUE_NF);
    for (int j = 0; out && j < VALUE_NF; j++) {
        PyObject *f = PyFloat_FromDouble(x[j]);
        if (!f) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, j, f);
    }
    return out;
}
