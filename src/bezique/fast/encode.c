/* The observation tensor of bezique.envs.encoding, written in C from the engine's state.
 *
 * Config.set_encoding installs the layout (block offsets, the kind axis, the meld columns and
 * classes), worked out by Encoding itself; Core.encode(seat, out) fills a float32 buffer with
 * what Encoding.encode(deal.observation(seat)) gives.  tests/test_envs_fast.py compares the two
 * on whole deals of every preset the engine plays. */
#include <string.h>

#include "pymod.h"

#define KIND(cfg, c) ((cfg)->kind_of[c])
#define HAS_MASK(m) ((m).lo | (m).hi)

/* set_encoding(size, offsets, kind_index, meld_columns, meld_classes) */
PyObject *Config_set_encoding(PyObject *o, PyObject *args) {
    ConfigObject *self = (ConfigObject *)o;
    int size;
    PyObject *offs, *kinds, *cols, *classes;
    if (!PyArg_ParseTuple(args, "iOOOO", &size, &offs, &kinds, &cols, &classes)) return NULL;
    int64_t off[ENC_BLOCKS], kd[NK], col[64], cl[64];
    if (get_ints(offs, off, ENC_BLOCKS, "block offsets") < 0 || get_ints(kinds, kd, NK, "kind axis") < 0 ||
        get_ints(cols, col, 64, "meld columns") < 0 || get_ints(classes, cl, 64, "meld classes") < 0)
        return NULL;
    if (size <= 0) return PyErr_Format(PyExc_ValueError, "bad tensor size %d", size);
    int k = 0, m = 0;
    for (int i = 0; i < ENC_BLOCKS; i++)
        if (off[i] < -1 || off[i] >= size) return PyErr_Format(PyExc_ValueError, "block %d out of range", i);
    for (int i = 0; i < NK; i++) {
        if (kd[i] < -1 || kd[i] >= NK) return PyErr_Format(PyExc_ValueError, "bad kind index");
        if (kd[i] >= k) k = (int)kd[i] + 1;
    }
    for (int i = 0; i < 64; i++) {
        if (col[i] < -1 || col[i] >= 64 || cl[i] < -1 || cl[i] > 3)
            return PyErr_Format(PyExc_ValueError, "bad meld column or class");
        if (col[i] >= m) m = (int)col[i] + 1;
    }
    for (int i = 0; i < ENC_BLOCKS; i++) self->enc_off[i] = (int)off[i];
    for (int i = 0; i < NK; i++) self->enc_kind[i] = (int8_t)kd[i];
    for (int i = 0; i < 64; i++) {
        self->enc_col[i] = (int8_t)col[i];
        self->enc_class[i] = (int8_t)cl[i];
    }
    self->enc_size = size;
    self->enc_k = k;
    self->enc_m = m;
    self->enc_ready = 1;
    Py_RETURN_NONE;
}

/* The classes (bits 0-3) of the melds a table card has scored in, broken ones included. */
static unsigned card_classes(const ConfigObject *co, Mask mk) {
    unsigned bits = 0;
    for (uint64_t w = mk.lo; w; w &= w - 1) {
        int c = co->enc_class[__builtin_ctzll(w)];
        if (c >= 0) bits |= 1u << c;
    }
    for (uint64_t w = mk.hi; w; w &= w - 1) {
        int c = co->enc_class[__builtin_ctzll(w)];
        if (c >= 0) bits |= 1u << c;
    }
    return bits;
}

static void fill(const ConfigObject *co, const State *st, int me, float *x) {
    const Config *cfg = &co->cfg;
    const int *o = co->enc_off;
    const int8_t *ki = co->enc_kind, *col = co->enc_col;
    int n = cfg->players, K = co->enc_k, M = co->enc_m;
#define REL(s) ((((s) - me) % n + n) % n)
    memset(x, 0, sizeof(float) * (size_t)co->enc_size);
    for (int s = 0; s < n; s++) {
        int r = REL(s);
        for (int i = 0; i < st->hn[s]; i++) {
            int c = st->hand[s][i], k = ki[KIND(cfg, c)];
            if (k < 0) continue;
            if (HAS_MASK(st->mask[c])) {
                x[o[EB_TABLE] + r * K + k] += 1;
                unsigned bits = card_classes(co, st->mask[c]);
                for (int b = 0; b < 4; b++)
                    if (bits >> b & 1) x[o[EB_TABLE_CLASS] + (r * K + k) * 4 + b] += 1;
            } else {
                if (s == me) x[o[EB_HAND] + k] += 1;
                if (st->known[c]) x[o[EB_KNOWN] + r * K + k] += 1;
            }
        }
        x[o[EB_TRICKS_WON] + r] = st->won[s];
        for (int m = 0; m < 64; m++)
            if (st->nmeld[s][m] && col[m] >= 0) x[o[EB_MELDS] + r * M + col[m]] += st->nmeld[s][m];
        if (o[EB_EXCHANGES] >= 0) x[o[EB_EXCHANGES] + r] = st->nexch[s];
        if (o[EB_CB] >= 0) x[o[EB_CB] + r] = st->ncb[s];
        x[o[EB_HAND_SIZES] + r] = st->hn[s];
    }
    for (int k = 0; k < NK; k++)
        if (st->played[k] && ki[k] >= 0) x[o[EB_PLAYED] + ki[k]] = st->played[k];
    for (int i = 0; i < st->tn; i++) {
        int k = ki[KIND(cfg, st->tcard[i])];
        if (k >= 0) x[o[EB_TRICK] + REL(st->tseat[i]) * K + k] = 1;
    }
    x[o[EB_LEADER] + REL(st->leader)] = 1;
    if (o[EB_LIVE] >= 0)
        for (int i = 0; i < st->ninst; i++) {
            int c = col[st->inst[i].meld];
            if (c >= 0) x[o[EB_LIVE] + REL(st->inst[i].seat) * M + c] += 1;
        }
    if (st->trump >= 0) x[o[EB_TRUMP] + st->trump] = 1;
    if (st->turn_up >= 0 && o[EB_TURN_UP] >= 0) {
        int k = ki[KIND(cfg, st->turn_up)];
        if (k >= 0) x[o[EB_TURN_UP] + k] = 1;
    }
    x[o[EB_STOCK]] = st->nstock;
    int64_t pts[MAXP];
    st_points(st, cfg, pts);
    int sides = cfg->sides, mine = cfg->partnerships ? me % 2 : me;
    for (int s = 0; s < sides; s++) x[o[EB_POINTS] + ((s - mine) % sides + sides) % sides] = (float)pts[s];
    x[o[EB_PHASE] + st->phase] = 1;
    x[o[EB_STAGE] + (st->stage == 1 ? 0 : 1)] = 1;
    if (st->to_move >= 0) x[o[EB_TO_MOVE] + REL(st->to_move)] = 1;
    x[o[EB_DEALER] + REL(st->dealer)] = 1;
    x[o[EB_DECLARED]] = st->decl;
    if (o[EB_EXCHANGED] >= 0) x[o[EB_EXCHANGED]] = st->exched ? 1 : 0;
#undef REL
}

/* encode(seat, out): fill the float32 vector ``out`` (length of the layout) for ``seat``. */
PyObject *Core_encode(PyObject *o, PyObject *args) {
    CoreObject *self = (CoreObject *)o;
    int seat;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "iO", &seat, &out)) return NULL;
    const ConfigObject *co = self->co;
    if (!co->enc_ready) return PyErr_Format(PyExc_RuntimeError, "no observation layout set for these rules");
    if (seat < 0 || seat >= co->cfg.players) return PyErr_Format(PyExc_ValueError, "no seat %d", seat);
    Py_buffer view;
    if (PyObject_GetBuffer(out, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (view.itemsize != 4 || !view.format || strcmp(view.format, "f") != 0 ||
        view.len != (Py_ssize_t)sizeof(float) * co->enc_size) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "out must be a float32 vector of length %d", co->enc_size);
    }
    fill(co, &self->st, seat, (float *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}
