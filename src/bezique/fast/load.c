/* Core.load: a whole engine state from the fields bezique/fast/_convert.py reads out of a
 * reference deal's position string. */
#include <string.h>

#include "pymod.h"

static int card_id(const Config *cfg, PyObject *o, int *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < 0 || v >= cfg->ncards) {
        PyErr_SetString(PyExc_ValueError, "card id out of range");
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* load(dealer, hands, turn_up, stock, fields): a whole state from Python (see _convert.py). */
PyObject *Core_load(PyObject *cls, PyObject *args) {
    (void)cls;
    ConfigObject *co;
    int dealer, turn_up;
    PyObject *hands, *stock, *f;
    if (!PyArg_ParseTuple(args, "O!iOiOO!", &ConfigType, &co, &dealer, &hands, &turn_up, &stock, &PyDict_Type, &f))
        return NULL;
    const Config *cfg = &co->cfg;
    uint16_t hs[MAXP][MAXH];
    uint8_t hn[MAXP] = {0};
    uint16_t stk[MAXC];
    if (PyList_Size(hands) != cfg->players) return PyErr_Format(PyExc_ValueError, "hands: one list per seat");
    for (int s = 0; s < cfg->players; s++) {
        PyObject *h = PyList_GET_ITEM(hands, s);
        Py_ssize_t n = PyList_Size(h);
        if (n < 0 || n > MAXH - 2) return PyErr_Format(PyExc_ValueError, "hand too large");
        for (Py_ssize_t i = 0; i < n; i++) {
            int c;
            if (card_id(cfg, PyList_GET_ITEM(h, i), &c) < 0) return NULL;
            hs[s][i] = (uint16_t)c;
        }
        hn[s] = (uint8_t)n;
    }
    Py_ssize_t ns = PyList_Size(stock);
    if (ns < 0 || ns > cfg->ncards) return PyErr_Format(PyExc_ValueError, "bad stock");
    for (Py_ssize_t i = 0; i < ns; i++) {
        int c;
        if (card_id(cfg, PyList_GET_ITEM(stock, i), &c) < 0) return NULL;
        stk[i] = (uint16_t)c;
    }
    if (turn_up < -1 || turn_up >= cfg->ncards) return PyErr_Format(PyExc_ValueError, "bad turn-up");
    CoreObject *self = core_alloc(co);
    if (!self) return NULL;
    State *st = &self->st;
    /* st_start scores the turn-up and carte blanche: the fields below overwrite all of it */
    st_start(st, cfg, dealer, hs, hn, turn_up, stk, (int)ns);
    memset(st->pts, 0, sizeof st->pts);
    st->cb_any = 0;
    memset(st->cb_state, 0, sizeof st->cb_state);
    memset(st->known, 0, sizeof st->known);
#define GETI(name, dst)                                                   \
    do {                                                                  \
        PyObject *o_ = PyDict_GetItemString(f, name);                     \
        if (!o_) {                                                        \
            Py_DECREF(self);                                              \
            return PyErr_Format(PyExc_KeyError, "missing field %s", name); \
        }                                                                 \
        long v_ = PyLong_AsLong(o_);                                      \
        if (v_ == -1 && PyErr_Occurred()) {                               \
            Py_DECREF(self);                                              \
            return NULL;                                                  \
        }                                                                 \
        dst = v_;                                                         \
    } while (0)
    long v;
    GETI("leader", v);
    st->leader = (int8_t)v;
    GETI("to_move", v);
    st->to_move = (int8_t)v;
    GETI("phase", v);
    st->phase = (int8_t)v;
    GETI("stage", v);
    st->stage = (int8_t)v;
    GETI("trump", v);
    st->trump = (int8_t)v;
    GETI("declared", v);
    st->decl = (int8_t)v;
    GETI("exchanged", v);
    st->exched = (int8_t)v;
    GETI("tricks", v);
    st->ntricks = (uint16_t)v;
    GETI("last_winner", v);
    st->last_winner = (int16_t)v;
    if (PyDict_GetItemString(f, "last_leader")) {
        GETI("last_leader", v);
        st->last_leader = (int16_t)v;
    }
    GETI("cb_any", v);
    st->cb_any = (uint8_t)v;
    PyObject *o;
    int64_t tmp[64 * MAXP];
    if (!(o = PyDict_GetItemString(f, "won")) || get_ints(o, tmp, cfg->players, "won") < 0) goto bad;
    for (int s = 0; s < cfg->players; s++) st->won[s] = (uint16_t)tmp[s];
    if (!(o = PyDict_GetItemString(f, "cb_state")) || get_ints(o, tmp, cfg->players, "cb_state") < 0) goto bad;
    for (int s = 0; s < cfg->players; s++) st->cb_state[s] = (uint8_t)tmp[s];
    if (!(o = PyDict_GetItemString(f, "doubled")) || get_ints(o, tmp, 3 * cfg->players, "doubled") < 0) goto bad;
    for (int s = 0; s < cfg->players; s++)
        for (int d = 0; d < 3; d++) st->ndoubled[s][d] = (uint16_t)tmp[3 * s + d];
    if (!(o = PyDict_GetItemString(f, "points")) || get_ints(o, tmp, 4 * cfg->sides, "points") < 0) goto bad;
    for (int s = 0; s < cfg->sides; s++)
        for (int p = 0; p < 4; p++) st->pts[s][p] = tmp[4 * s + p];
    /* the observation tensor's counts (optional: zero when not given) */
    if ((o = PyDict_GetItemString(f, "melds_scored"))) {
        if (get_ints(o, tmp, 64 * cfg->players, "melds_scored") < 0) goto bad;
        for (int s = 0; s < cfg->players; s++)
            for (int m = 0; m < 64; m++) st->nmeld[s][m] = (uint16_t)tmp[64 * s + m];
    }
    if ((o = PyDict_GetItemString(f, "carry"))) {
        if (get_ints(o, tmp, cfg->sides, "carry") < 0) goto bad;
        for (int s = 0; s < cfg->sides; s++) st->carry[s] = tmp[s];
    }
    if ((o = PyDict_GetItemString(f, "game_bezique"))) {
        long g = PyLong_AsLong(o);
        if (g == -1 && PyErr_Occurred()) goto bad;
        st->game_bez = g != 0;
    }
    if ((o = PyDict_GetItemString(f, "exchanges"))) {
        if (get_ints(o, tmp, cfg->players, "exchanges") < 0) goto bad;
        for (int s = 0; s < cfg->players; s++) st->nexch[s] = (uint16_t)tmp[s];
    }
    if ((o = PyDict_GetItemString(f, "cb_count"))) {
        if (get_ints(o, tmp, cfg->players, "cb_count") < 0) goto bad;
        for (int s = 0; s < cfg->players; s++) st->ncb[s] = (uint16_t)tmp[s];
    }
    if (!(o = PyDict_GetItemString(f, "played")) || get_ints(o, tmp, NK, "played") < 0) goto bad;
    for (int k = 0; k < NK; k++) st->played[k] = (uint8_t)tmp[k];
    if (!(o = PyDict_GetItemString(f, "known")) || !PyList_Check(o)) goto bad;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); i++) {
        int c;
        if (card_id(cfg, PyList_GET_ITEM(o, i), &c) < 0) goto bad;
        st->known[c] = 1;
    }
    if (!(o = PyDict_GetItemString(f, "masks")) || !PyList_Check(o)) goto bad;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); i++) {
        int c;
        unsigned long long lo, hi;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(o, i), "iKK", &c, &lo, &hi)) goto bad;
        if (c < 0 || c >= cfg->ncards) goto bad;
        st->mask[c].lo = lo;
        st->mask[c].hi = hi;
    }
    if (!(o = PyDict_GetItemString(f, "trick")) || !PyList_Check(o) || PyList_GET_SIZE(o) > MAXP) goto bad;
    st->tn = (uint8_t)PyList_GET_SIZE(o);
    for (int i = 0; i < st->tn; i++) {
        int s, c;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(o, i), "ii", &s, &c)) goto bad;
        if (s < 0 || s >= cfg->players || c < 0 || c >= cfg->ncards) goto bad;
        st->tseat[i] = (uint8_t)s;
        st->tcard[i] = (uint16_t)c;
    }
    if (!(o = PyDict_GetItemString(f, "instances")) || !PyList_Check(o) || PyList_GET_SIZE(o) > MAXINST) goto bad;
    st->ninst = (uint16_t)PyList_GET_SIZE(o);
    for (int i = 0; i < st->ninst; i++) {
        int s, m;
        PyObject *ids;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(o, i), "iiO", &s, &m, &ids)) goto bad;
        Py_ssize_t n = PyList_Size(ids);
        if (n < 0 || n > MAXMC) goto bad;
        st->inst[i].seat = (uint8_t)s;
        st->inst[i].meld = (uint8_t)m;
        st->inst[i].n = (uint8_t)n;
        for (Py_ssize_t a = 0; a < n; a++) {
            int c;
            if (card_id(cfg, PyList_GET_ITEM(ids, a), &c) < 0) goto bad;
            st->inst[i].ids[a] = (uint16_t)c;
        }
    }
    st_recount(st);
    st_recount_kinds(st, cfg);
    st_touch(st);
    return (PyObject *)self;
bad:
    Py_DECREF(self);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad state fields");
    return NULL;
}

