/* The compiled rules (type bezique.fast._engine.Config): option values, meld plans, the
 * action-id table and the default policy's tables, all given by bezique/fast/_config.py. */
#include <stdlib.h>
#include <string.h>

#include "config_fields.h"
#include "pymod.h"

/* --- Config ------------------------------------------------------------------------------- */
static void Config_dealloc(ConfigObject *self) {
    free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

int get_ints(PyObject *seq, int64_t *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d numbers", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* Each array field of the list is exactly as long as its member. */
#define CHECK_SCALAR(name, member)
#define CHECK_ARRAY(name, member, n)                                                      \
    _Static_assert(sizeof(((Config *)0)->member) / sizeof(((Config *)0)->member[0]) == (n), \
                   "config field " name ": its length differs from Config." #member);
CONFIG_FIELDS(CHECK_SCALAR, CHECK_ARRAY)

/* The option values, by name (config_fields.h, generated with bezique/fast/_fields.py from one
   list): a missing or unknown name is an error that names it, never a value read into the
   wrong field. */
static int read_fields(Config *c, PyObject *fields) {
    int64_t v[NK];
    PyObject *item;
#define READ_SCALAR(name, member)                                                                   \
    if (!(item = PyDict_GetItemString(fields, name))) {                                             \
        PyErr_SetString(PyExc_ValueError, "config field " name " is missing: the field lists differ " \
                                          "(run scripts/make_fast_tables.py and rebuild)");          \
        return -1;                                                                                  \
    }                                                                                               \
    v[0] = PyLong_AsLongLong(item);                                                                 \
    if (v[0] == -1 && PyErr_Occurred()) return -1;                                                  \
    c->member = v[0];
#define READ_ARRAY(name, member, n)                                                                 \
    if (!(item = PyDict_GetItemString(fields, name))) {                                             \
        PyErr_SetString(PyExc_ValueError, "config field " name " is missing: the field lists differ " \
                                          "(run scripts/make_fast_tables.py and rebuild)");          \
        return -1;                                                                                  \
    }                                                                                               \
    if (get_ints(item, v, (n), "config field " name) < 0) return -1;                                \
    for (int i = 0; i < (n); i++) c->member[i] = v[i];
    CONFIG_FIELDS(READ_SCALAR, READ_ARRAY)
#undef READ_SCALAR
#undef READ_ARRAY
    if (PyDict_Size(fields) != CONFIG_NFIELDS) {
        PyObject *key;
        Py_ssize_t pos = 0;
        while (PyDict_Next(fields, &pos, &key, &item)) {
            const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
            int known = 0;
            if (!name) break;
#define KNOWN_SCALAR(field, member) known |= !strcmp(name, field);
#define KNOWN_ARRAY(field, member, n) known |= !strcmp(name, field);
            CONFIG_FIELDS(KNOWN_SCALAR, KNOWN_ARRAY)
#undef KNOWN_SCALAR
#undef KNOWN_ARRAY
            if (!known) {
                PyErr_Format(PyExc_ValueError,
                             "unknown config field %s: the field lists differ (run "
                             "scripts/make_fast_tables.py and rebuild)",
                             name);
                return -1;
            }
        }
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "config fields: the names must be strings");
        return -1;
    }
    return 0;
}

static int parse_plan(PlanItem *it, PyObject *item) {
    PyObject *slots, *needs, *ranks;
    int meld;
    unsigned long long lo, hi;
    if (!PyArg_ParseTuple(item, "iKKOOO", &meld, &lo, &hi, &slots, &needs, &ranks)) return -1;
    memset(it, 0, sizeof *it);
    it->meld = (uint8_t)meld;
    it->block.lo = lo;
    it->block.hi = hi;
    Py_ssize_t ns = PyTuple_Size(slots), nn = PyTuple_Size(needs), nr = PyTuple_Size(ranks);
    if (ns < 0 || nn < 0 || nr < 0 || ns > 5 || nn > 5 || nr > 5) {
        PyErr_SetString(PyExc_ValueError, "bad meld plan");
        return -1;
    }
    it->nslots = (uint8_t)ns;
    for (Py_ssize_t s = 0; s < ns; s++) {
        PyObject *kinds;
        int n;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(slots, s), "Oi", &kinds, &n)) return -1;
        Py_ssize_t nk = PyTuple_Size(kinds);
        if (nk < 1 || nk > 4 || n < 1 || n > MAXMC) {
            PyErr_SetString(PyExc_ValueError, "bad meld slot");
            return -1;
        }
        it->slots[s].nk = (uint8_t)nk;
        it->slots[s].n = (uint8_t)n;
        for (Py_ssize_t a = 0; a < nk; a++) {
            long k = PyLong_AsLong(PyTuple_GET_ITEM(kinds, a));
            if (k < 0 || k >= NK) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad meld slot kind");
                return -1;
            }
            it->slots[s].kinds[a] = (uint8_t)k;
        }
    }
    it->nneeds = (uint8_t)nn;
    for (Py_ssize_t a = 0; a < nn; a++) {
        int n;
        unsigned long bits;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(needs, a), "ik", &n, &bits)) return -1;
        if (n < 1 || n > 9) {
            PyErr_SetString(PyExc_ValueError, "bad meld need");
            return -1;
        }
        it->need_n[a] = (uint8_t)n;
        it->need_kinds[a] = (uint32_t)bits;
    }
    it->nrank = (uint8_t)nr;
    for (Py_ssize_t a = 0; a < nr; a++) {
        int r, n;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(ranks, a), "ii", &r, &n)) return -1;
        it->rank_r[a] = (uint8_t)r;
        it->rank_n[a] = (uint8_t)n;
    }
    for (int a = 0; a < it->nneeds; a++) it->quick |= (uint64_t)it->need_kinds[a];
    for (int s = 0; s < it->nslots; s++)
        for (int a = 0; a < it->slots[s].nk; a++)
            it->takes |= 1ULL << it->slots[s].kinds[a];
    return 0;
}

/* The bit index of one plan (see Config.plan_by_kind): every item is found under a kind or
   rank it cannot do without, so a hand lacking that kind or rank skips it. */
static void index_plan(Config *c, int t) {
    c->plan_indexed[t] = c->nplan[t] <= 64;
    memset(c->plan_by_kind[t], 0, sizeof c->plan_by_kind[t]);
    memset(c->plan_by_rank[t], 0, sizeof c->plan_by_rank[t]);
    memset(c->plan_rank_min[t], 0xff, sizeof c->plan_rank_min[t]);
    c->plan_always[t] = 0;
    memset(c->plan_sub_byte[t], 0, sizeof c->plan_sub_byte[t]);
    memset(c->plan_taking[t], 0, sizeof c->plan_taking[t]);
    if (!c->plan_indexed[t]) return;
    for (int p = 0; p < c->nplan[t]; p++)
        for (int k = 0; k < NK; k++)
            if (c->plan[t][p].takes >> k & 1) c->plan_taking[t][k] |= 1ULL << p;
    for (int p = 0; p < c->nplan[t]; p++) {
        const PlanItem *it = &c->plan[t][p];
        uint64_t bit = 1ULL << p;
        if (it->quick) {
            int k = 63;
            while (!(it->quick >> k & 1)) k--;
            c->plan_by_kind[t][k] |= bit;
        } else if (it->nrank) {
            int r = it->rank_r[0] & 7;
            c->plan_by_rank[t][r] |= bit;
            if (it->rank_n[0] < c->plan_rank_min[t][r]) c->plan_rank_min[t][r] = it->rank_n[0];
        } else {
            c->plan_always[t] |= bit;
        }
    }
    uint8_t least[8]; /* plan_rank_min as bytes below 128 (127: no item), read as one word */
    for (int r = 0; r < 8; r++) least[r] = c->plan_rank_min[t][r] < 127 ? c->plan_rank_min[t][r] : 127;
    memcpy(&c->plan_rank_least[t], least, sizeof least);
    /* the kinds of one suit at a time (a byte of the kinds held): the items whose kinds of that
       suit are all among them; never an item that needs a wild card (the hands the index
       serves hold none) nor one found by rank (plan_by_rank) */
    for (int p = 0; p < c->nplan[t]; p++) {
        const PlanItem *it = &c->plan[t][p];
        if (it->quick >> 32 || (!it->quick && it->nrank)) continue;
        for (int b = 0; b < 4; b++) {
            unsigned need = (unsigned)(it->quick >> (b * 8) & 255);
            for (unsigned v = 0; v < 256; v++)
                if ((v & need) == need) c->plan_sub_byte[t][b][v] |= 1ULL << p;
        }
    }
}

static int Config_init(ConfigObject *self, PyObject *args, PyObject *kw) {
    PyObject *fields, *kinds, *scores, *plans;
    (void)kw;
    if (!PyArg_ParseTuple(args, "O!OOO", &PyDict_Type, &fields, &kinds, &scores, &plans)) return -1;
    Config *c = &self->cfg;
    memset(c, 0, sizeof *c);
    if (read_fields(c, fields) < 0) return -1;
    for (int t = 0; t < 5; t++) c->exch_kind[t] = t < 4 && c->exch_rank >= 0 ? t * 8 + c->exch_rank : -1;
    if (c->players < 2 || c->players > MAXP || c->ncards < 1 || c->ncards > MAXC || c->hand_size < 1 ||
        c->hand_size > MAXH - 2 || c->sides < 2 || c->sides > MAXP) {
        PyErr_SetString(PyExc_ValueError, "engine limits exceeded (players, packs or hand size)");
        return -1;
    }
    for (int dealer = 0; dealer < c->players; dealer++)
        for (int first = 0; first < c->players; first++) {
            int n = 0;
            for (int i = 0, seat = first; i < c->players; i++, seat = (seat + 1) % c->players)
                if (!c->sits_out || seat != dealer) c->seat_order[dealer][first][n++] = (uint8_t)seat;
            c->nactive = n;
        }
    Py_buffer buf;
    if (PyObject_GetBuffer(kinds, &buf, PyBUF_SIMPLE) < 0) return -1;
    if (buf.len != c->ncards) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "kinds: one byte per card");
        return -1;
    }
    memcpy(c->kind_of, buf.buf, (size_t)buf.len);
    PyBuffer_Release(&buf);
    for (int k = 0; k < NK; k++) c->first_id[k] = -1;
    for (int id = 0; id < c->ncards; id++) {
        int k = c->kind_of[id];
        if (k >= NK) {
            PyErr_SetString(PyExc_ValueError, "bad card kind");
            return -1;
        }
        if (c->first_id[k] < 0) c->first_id[k] = id;
        c->count[k]++;
    }
    int64_t sc[NUM_MELDS];
    if (get_ints(scores, sc, NUM_MELDS, "meld scores") < 0) return -1;
    for (int m = 0; m < NUM_MELDS; m++) c->meld_score[m] = sc[m];
    if (!PyTuple_Check(plans) || PyTuple_GET_SIZE(plans) != 5) {
        PyErr_SetString(PyExc_ValueError, "plans: five tuples");
        return -1;
    }
    for (int t = 0; t < 5; t++) {
        PyObject *p = PyTuple_GET_ITEM(plans, t);
        Py_ssize_t n = PyTuple_Size(p);
        if (n < 0 || n > MAXPLAN) {
            PyErr_SetString(PyExc_ValueError, "plans: too many ways to meld");
            return -1;
        }
        c->nplan[t] = (int)n;
        for (Py_ssize_t a = 0; a < n; a++)
            if (parse_plan(&c->plan[t][a], PyTuple_GET_ITEM(p, a)) < 0) return -1;
        index_plan(c, t);
    }
    return 0;
}

static PyObject *Config_set_ids(ConfigObject *self, PyObject *args) {
    PyObject *play_off, *melds;
    if (!PyArg_ParseTuple(args, "iiiOOii", &self->pass_id, &self->exch_id, &self->partner_id, &play_off, &melds,
                          &self->alt_base, &self->num_actions))
        return NULL;
    int64_t off[NK];
    if (get_ints(play_off, off, NK, "play offsets") < 0) return NULL;
    for (int k = 0; k < NK; k++) self->play_off[k] = (int)off[k];
    Py_ssize_t n = PyList_Size(melds);
    if (n < 0) return NULL;
    int size = 16;
    while (size < 2 * n + 16) size *= 2;
    free(self->table);
    self->table = malloc(sizeof(IdSlot) * (size_t)size);
    if (!self->table) return PyErr_NoMemory();
    self->hsize = size;
    for (int i = 0; i < size; i++) self->table[i].id = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *kb;
        Py_ssize_t kl;
        int id;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(melds, i), "y#i", &kb, &kl, &id)) return NULL;
        uint8_t key[KEYLEN];
        memset(key, 0xff, KEYLEN);
        memcpy(key, kb, (size_t)(kl < KEYLEN ? kl : KEYLEN));
        uint64_t h = key_hash(key) & (uint64_t)(size - 1);
        while (self->table[h].id >= 0) h = (h + 1) & (uint64_t)(size - 1);
        memcpy(self->table[h].key, key, KEYLEN);
        self->table[h].id = id;
    }
    self->ids_ready = 1;
    Py_RETURN_NONE;
}

/* set_policy(doubles): the default policy's tables, in the order of _config.policy_table. */
static PyObject *Config_set_policy(ConfigObject *self, PyObject *arg) {
    Config *c = &self->cfg;
    int n = 8 + 1 + 64 + 1 + 5 * (4 + 2 + 8 + 1 + 2);
    int64_t dummy;
    (void)dummy;
    PyObject *fast = PySequence_Fast(arg, "policy table");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        return PyErr_Format(PyExc_ValueError, "policy table: %d numbers expected", n);
    }
    double v[8 + 1 + 64 + 1 + 5 * 17];
    for (int i = 0; i < n; i++) {
        v[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (v[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    int i = 0;
    for (int r = 0; r < 8; r++) c->pol_rank[r] = v[i++];
    c->pol_per_trick = v[i++];
    for (int m = 0; m < 64; m++) c->pol_declare[m] = v[i++];
    c->pol_exchange = v[i++];
    for (int t = 0; t < 5; t++) {
        for (int s = 0; s < 4; s++) c->pol_marriage[t][s] = v[i++];
        c->pol_bez_q[t] = (int)v[i++];
        c->pol_bez_j[t] = (int)v[i++];
        c->pol_bez1[t] = v[i++];
        c->pol_bez2[t] = v[i++];
        for (int r = 0; r < 8; r++) c->pol_quartet[t][r] = v[i++];
        c->pol_sequence[t] = v[i++];
    }
    c->pol_ready = 1;
    Py_RETURN_NONE;
}

/* set_trump_sets(members, points): trump_set_scoring=cumulative, 64 * 9 numbers each
   (_config.trump_sets). */
static PyObject *Config_set_trump_sets(ConfigObject *self, PyObject *args) {
    PyObject *members, *points;
    if (!PyArg_ParseTuple(args, "OO", &members, &points)) return NULL;
    int64_t m[64 * 9], p[64 * 9];
    if (get_ints(members, m, 64 * 9, "set members") < 0 || get_ints(points, p, 64 * 9, "set points") < 0)
        return NULL;
    Config *c = &self->cfg;
    for (int i = 0; i < 64 * 9; i++) {
        if (m[i] < -1 || m[i] >= NUM_MELDS) return PyErr_Format(PyExc_ValueError, "bad set member");
        c->set_member[i / 9][i % 9] = (int8_t)m[i];
        c->set_pts[i / 9][i % 9] = p[i];
    }
    c->cumulative = 1;
    Py_RETURN_NONE;
}

static PyObject *Config_policy_ready(ConfigObject *self, void *unused) {
    (void)unused;
    return PyBool_FromLong(self->cfg.pol_ready);
}

static PyObject *Config_encoding_ready(ConfigObject *self, void *unused) {
    (void)unused;
    return PyBool_FromLong(self->enc_ready);
}

static PyGetSetDef Config_getset[] = {
    {"policy_ready", (getter)Config_policy_ready, NULL, "True once the policy tables are set", NULL},
    {"encoding_ready", (getter)Config_encoding_ready, NULL, "True once the observation layout is set", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyObject *Config_set_encoding(PyObject *self, PyObject *args);

static PyMethodDef Config_methods[] = {
    {"set_ids", (PyCFunction)Config_set_ids, METH_VARARGS, "Install the action-id table."},
    {"set_policy", (PyCFunction)Config_set_policy, METH_O, "Install the default policy's tables."},
    {"set_trump_sets", (PyCFunction)Config_set_trump_sets, METH_VARARGS, "Install cumulative trump-set scoring."},
    {"set_encoding", (PyCFunction)Config_set_encoding, METH_VARARGS, "Install the observation layout."},
    {NULL, NULL, 0, NULL}};

PyTypeObject ConfigType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bezique.fast._engine.Config",
    .tp_basicsize = sizeof(ConfigObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The rules of a deal, compiled (built by bezique.fast._config).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Config_init,
    .tp_dealloc = (destructor)Config_dealloc,
    .tp_methods = Config_methods,
    .tp_getset = Config_getset,
};

