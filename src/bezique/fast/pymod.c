/* Python binding of the compiled engine: module bezique.fast._engine (types Config and Core). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pymod.h"
#include "search.h"

static PyObject *ActionType = NULL;  /* bezique.core.notation.Action */
static PyObject *IllegalType = NULL; /* bezique.core.notation.IllegalAction */

/* --- Core --------------------------------------------------------------------------------- */

PyTypeObject CoreType;
static _Thread_local Move scratch[MAXMOVES]; /* per thread: searches run without the GIL */

static void Core_dealloc(CoreObject *self) {
    Py_XDECREF(self->co);
    free(self->moves);
    free(self->ids);
    free(self->hist);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

CoreObject *core_alloc(ConfigObject *co) {
    CoreObject *self = PyObject_New(CoreObject, &CoreType);
    if (!self) return NULL;
    Py_INCREF(co);
    self->co = co;
    self->nmoves = -1;
    self->moves = NULL;
    self->ids = NULL;
    self->nhist = self->caphist = 0;
    self->hist = NULL;
    return self;
}

static void invalidate(CoreObject *self) {
    self->nmoves = -1;
    free(self->moves);
    free(self->ids);
    self->moves = NULL;
    self->ids = NULL;
}

static int ensure_moves(CoreObject *self) {
    if (self->nmoves >= 0) return 0;
    int n = st_moves(&self->st, &self->co->cfg, scratch, MAXMOVES);
    if (n < 0) {
        PyErr_SetString(PyExc_RuntimeError, "too many legal actions for the compiled engine");
        return -1;
    }
    self->moves = malloc(sizeof(Move) * (size_t)(n ? n : 1));
    if (!self->moves) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(self->moves, scratch, sizeof(Move) * (size_t)n);
    self->nmoves = n;
    return 0;
}

static int push_hist(CoreObject *self, const Move *mv) {
    if (self->nhist == self->caphist) {
        int cap = self->caphist ? 2 * self->caphist : 64;
        Move *h = realloc(self->hist, sizeof(Move) * (size_t)cap);
        if (!h) {
            PyErr_NoMemory();
            return -1;
        }
        self->hist = h;
        self->caphist = cap;
    }
    self->hist[self->nhist++] = *mv;
    return 0;
}

static int apply_move(CoreObject *self, const Move *mv) {
    Move copy = *mv; /* mv may point into the list about to be freed */
    if (push_hist(self, &copy) < 0) return -1;
    invalidate(self);
    st_apply(&self->st, &self->co->cfg, &copy);
    return 0;
}

static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)type;
    (void)kw;
    ConfigObject *co;
    int dealer;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "O!iK", &ConfigType, &co, &dealer, &seed)) return NULL;
    if (dealer < 0 || dealer >= co->cfg.players) return PyErr_Format(PyExc_ValueError, "no seat %d", dealer);
    CoreObject *self = core_alloc(co);
    if (!self) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    st_new(&self->st, &co->cfg, dealer, &rng);
    return (PyObject *)self;
}

static PyObject *Core_clone(CoreObject *self, PyObject *unused) {
    (void)unused;
    CoreObject *c = core_alloc(self->co);
    if (!c) return NULL;
    memcpy(&c->st, &self->st, offsetof(State, inst) + sizeof(Inst) * self->st.ninst);
    if (self->nhist) {
        c->hist = malloc(sizeof(Move) * (size_t)self->nhist);
        if (!c->hist) {
            Py_DECREF(c);
            return PyErr_NoMemory();
        }
        memcpy(c->hist, self->hist, sizeof(Move) * (size_t)self->nhist);
        c->nhist = c->caphist = self->nhist;
    }
    return (PyObject *)c;
}

/* A move's text in a new buffer of its full length (NULL without memory): a declaration's text
   has no useful bound, since each of its cards may name every meld it is in (a quintuple
   bezique of the eight-pack game runs past 500 characters). */
static char *move_text_new(const State *st, const Config *cfg, const Move *mv) {
    char probe[1];
    int n = st_move_text(st, cfg, mv, probe, sizeof probe);
    char *text = malloc((size_t)n + 1);
    if (text) st_move_text(st, cfg, mv, text, n + 1);
    return text;
}

/* A move's text as a Python string, less its first `skip` characters; the stack buffer serves
   all but the longest texts. */
static PyObject *move_text_object(const State *st, const Config *cfg, const Move *mv, int skip) {
    char buf[512];
    int n = st_move_text(st, cfg, mv, buf, sizeof buf);
    if (n < (int)sizeof buf) return PyUnicode_FromStringAndSize(buf + skip, n - skip);
    char *text = move_text_new(st, cfg, mv);
    if (!text) return PyErr_NoMemory();
    PyObject *r = PyUnicode_FromStringAndSize(text + skip, n - skip);
    free(text);
    return r;
}

static PyObject *text_of(const CoreObject *self, const Move *mv) {
    return move_text_object(&self->st, &self->co->cfg, mv, 0);
}

static PyObject *Core_legal_texts(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (ensure_moves(self) < 0) return NULL;
    PyObject *out = PyList_New(self->nmoves);
    if (!out) return NULL;
    for (int i = 0; i < self->nmoves; i++) {
        PyObject *t = text_of(self, &self->moves[i]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

/* The Action value of a move, built without parsing its text. */
static PyObject *action_of(const CoreObject *self, const Move *mv) {
    static const char *verbs[] = {"play", "meld", "exchange", "partner", "pass"};
    const Config *cfg = &self->co->cfg;
    PyObject *cards = PyTuple_New(mv->type == MV_PARTNER || mv->type == MV_PASS ? 0 : mv->n);
    if (!cards) return NULL;
    if (mv->type == MV_EXCH) {
        PyTuple_SET_ITEM(cards, 0, PyUnicode_FromString(KIND_CODES[cfg->kind_of[mv->ids[0]]]));
    } else if (mv->type == MV_PLAY || mv->type == MV_MELD) {
        for (int i = 0; i < mv->n; i++) {
            /* the card's name: its play text after "play " */
            PyObject *name = move_text_object(&self->st, cfg, &(Move){MV_PLAY, 0, 1, {mv->ids[i]}}, 5);
            if (!name) {
                Py_DECREF(cards);
                return NULL;
            }
            PyTuple_SET_ITEM(cards, i, name);
        }
    }
    PyObject *r = PyObject_CallFunction(ActionType, "ssN", verbs[mv->type],
                                        mv->type == MV_MELD ? MELD_NAMES[mv->meld] : "", cards);
    return r;
}

static PyObject *Core_legal_actions(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (ensure_moves(self) < 0) return NULL;
    PyObject *out = PyList_New(self->nmoves);
    if (!out) return NULL;
    for (int i = 0; i < self->nmoves; i++) {
        PyObject *a = action_of(self, &self->moves[i]);
        if (!a) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, a);
    }
    return out;
}

static PyObject *Core_apply_index(CoreObject *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (self->st.phase == PH_OVER) {
        PyErr_SetString(IllegalType, "the deal is over: no more actions");
        return NULL;
    }
    if (ensure_moves(self) < 0) return NULL;
    if (i < 0 || i >= self->nmoves) return PyErr_Format(PyExc_IndexError, "no legal action %ld", i);
    if (apply_move(self, &self->moves[i]) < 0) return NULL;
    Py_RETURN_NONE;
}

/* --- action ids ----------------------------------------------------------------------------- */
static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static int play_id(const CoreObject *self, int c) {
    const State *st = &self->st;
    const Config *cfg = &self->co->cfg;
    int k = cfg->kind_of[c], seat = st->to_move;
    Mask m = st->mask[c];
    if (!(m.lo | m.hi)) return self->co->play_off[k];
    int below = 0, nd = 0;
    Mask seen[MAXH];
    for (int i = 0; i < st->hn[seat]; i++) {
        int d = st->hand[seat][i];
        Mask md = st->mask[d];
        if (cfg->kind_of[d] != k || !(md.lo | md.hi)) continue;
        int dup = 0;
        for (int j = 0; j < nd; j++)
            if (seen[j].lo == md.lo && seen[j].hi == md.hi) dup = 1;
        if (dup) continue;
        seen[nd++] = md;
        if (md.hi < m.hi || (md.hi == m.hi && md.lo < m.lo)) below++;
    }
    return self->co->play_off[k] + 1 + below;
}

static int meld_key_id(const CoreObject *self, const Move *mv) {
    const Config *cfg = &self->co->cfg;
    int need[NK] = {0}, decl[NK] = {0};
    for (int i = 0; i < mv->n; i++) {
        int c = mv->ids[i], k = cfg->kind_of[c];
        need[k]++;
        if (self->st.mask[c].lo | self->st.mask[c].hi) decl[k]++;
    }
    uint8_t key[KEYLEN];
    memset(key, 0xff, KEYLEN);
    int p = 0;
    key[p++] = mv->meld;
    for (int k = 0; k < NK && p + 3 <= KEYLEN; k++)
        if (need[k]) {
            key[p++] = (uint8_t)k;
            key[p++] = (uint8_t)need[k];
            key[p++] = (uint8_t)decl[k];
        }
    return lookup_meld(self->co, key);
}

typedef struct {
    int mid, move;
    char *text;
} MeldText;

static int cmp_meldtext(const void *a, const void *b) {
    const MeldText *x = a, *y = b;
    if (x->mid != y->mid) return x->mid - y->mid;
    return strcmp(x->text, y->text);
}

static int ensure_ids(CoreObject *self) {
    if (ensure_moves(self) < 0) return -1;
    if (self->ids) return 0;
    if (!self->co->ids_ready) {
        PyErr_SetString(PyExc_RuntimeError, "action ids are not set up for these rules");
        return -1;
    }
    int n = self->nmoves;
    self->ids = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!self->ids) {
        PyErr_NoMemory();
        return -1;
    }
    int nmeld = 0;
    for (int i = 0; i < n; i++) {
        const Move *mv = &self->moves[i];
        switch (mv->type) {
        case MV_PLAY:
            self->ids[i] = play_id(self, mv->ids[0]);
            break;
        case MV_MELD:
            self->ids[i] = meld_key_id(self, mv);
            if (self->ids[i] < 0) {
                PyErr_SetString(PyExc_KeyError, "a declaration has no id in the action table");
                goto fail;
            }
            nmeld++;
            break;
        case MV_EXCH:
            self->ids[i] = self->co->exch_id;
            break;
        case MV_PARTNER:
            self->ids[i] = self->co->partner_id;
            break;
        default:
            self->ids[i] = self->co->pass_id;
        }
    }
    if (nmeld > 1) {
        /* declarations sharing a meld id: the first by notation keeps it, the others take
           alternate ids in order of meld id, then notation */
        int *sorted = malloc(sizeof(int) * (size_t)nmeld);
        MeldText *mt = malloc(sizeof(MeldText) * (size_t)nmeld);
        if (!sorted || !mt) {
            free(sorted);
            free(mt);
            PyErr_NoMemory();
            goto fail;
        }
        int j = 0;
        for (int i = 0; i < n; i++)
            if (self->moves[i].type == MV_MELD) sorted[j++] = self->ids[i];
        qsort(sorted, (size_t)nmeld, sizeof(int), cmp_int);
        int clash = 0;
        for (int i = 1; i < nmeld; i++)
            if (sorted[i] == sorted[i - 1]) clash = 1;
        if (clash) {
            j = 0;
            for (int i = 0; i < n; i++)
                if (self->moves[i].type == MV_MELD) {
                    mt[j].mid = self->ids[i];
                    mt[j].move = i;
                    mt[j].text = move_text_new(&self->st, &self->co->cfg, &self->moves[i]);
                    j++;
                }
            int lost = 0;
            for (int i = 0; i < nmeld; i++) lost |= !mt[i].text;
            if (lost) {
                for (int i = 0; i < nmeld; i++) free(mt[i].text);
                free(sorted);
                free(mt);
                PyErr_NoMemory();
                goto fail;
            }
            qsort(mt, (size_t)nmeld, sizeof(MeldText), cmp_meldtext);
            int alt = self->co->alt_base, over = 0;
            for (int i = 1; i < nmeld && !over; i++)
                if (mt[i].mid == mt[i - 1].mid) {
                    if (alt >= self->co->num_actions)
                        over = 1;
                    else
                        self->ids[mt[i].move] = alt++;
                }
            for (int i = 0; i < nmeld; i++) free(mt[i].text);
            if (over) {
                free(sorted);
                free(mt);
                PyErr_SetString(PyExc_RuntimeError, "more alternate declarations than the encoding reserves");
                goto fail;
            }
        }
        free(sorted);
        free(mt);
    }
    return 0;
fail:
    free(self->ids);
    self->ids = NULL;
    return -1;
}

static PyObject *Core_legal_ids(CoreObject *self, PyObject *unused) {
    (void)unused;
    if (ensure_ids(self) < 0) return NULL;
    int n = self->nmoves, tmp[MAXMOVES];
    memcpy(tmp, self->ids, sizeof(int) * (size_t)n);
    qsort(tmp, (size_t)n, sizeof(int), cmp_int);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromLong(tmp[i]));
    return out;
}

/* legal_pairs(): (id, Action) of every legal action, ascending by id. */
static int cmp_pair(const void *a, const void *b) { return ((const int *)a)[0] - ((const int *)b)[0]; }

/* (id, Action) pairs, or (id, text) pairs when as_text, ascending by id. */
static PyObject *legal_pairs(CoreObject *self, int as_text) {
    if (ensure_ids(self) < 0) return NULL;
    int n = self->nmoves;
    int(*order)[2] = malloc(sizeof(int[2]) * (size_t)(n ? n : 1));
    if (!order) return PyErr_NoMemory();
    for (int i = 0; i < n; i++) {
        order[i][0] = self->ids[i];
        order[i][1] = i;
    }
    qsort(order, (size_t)n, sizeof(int[2]), cmp_pair);
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        const Move *mv = &self->moves[order[i][1]];
        PyObject *a = as_text ? text_of(self, mv) : action_of(self, mv);
        if (!a) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, Py_BuildValue("(iN)", order[i][0], a));
    }
    free(order);
    return out;
}

static PyObject *Core_legal_pairs(CoreObject *self, PyObject *unused) {
    (void)unused;
    return legal_pairs(self, 0);
}

static PyObject *Core_legal_id_texts(CoreObject *self, PyObject *unused) {
    (void)unused;
    return legal_pairs(self, 1);
}

static PyObject *Core_apply_id(CoreObject *self, PyObject *arg) {
    if (PyBool_Check(arg)) return PyErr_Format(IllegalType, "an action id is an int: got %R", arg);
    long want = PyLong_AsLong(arg);
    if (want == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError) && !PyErr_ExceptionMatches(PyExc_TypeError)) return NULL;
        PyErr_Clear();
        return PyErr_Format(IllegalType, "an action id is a whole number from 0 to %d: got %R",
                            self->co->num_actions - 1, arg);
    }
    if (self->st.phase == PH_OVER) {
        PyErr_SetString(IllegalType, "the deal is over: no more actions");
        return NULL;
    }
    if (!self->co->ids_ready) {
        PyErr_SetString(PyExc_RuntimeError, "action ids are not set up for these rules");
        return NULL;
    }
    if (want < 0 || want >= self->co->num_actions)
        return PyErr_Format(IllegalType, "no action id %ld: ids run from 0 to %d", want, self->co->num_actions - 1);
    if (ensure_ids(self) < 0) return NULL;
    for (int i = 0; i < self->nmoves; i++)
        if (self->ids[i] == want) {
            if (apply_move(self, &self->moves[i]) < 0) return NULL;
            Py_RETURN_NONE;
        }
    return PyErr_Format(IllegalType, "action id %ld is not legal here", want);
}

/* --- state read-out --------------------------------------------------------------------------- */
/* The kinds of these cards as codes, sorted by kind (a new list; NULL without memory). */
PyObject *codes_list(const Config *cfg, const uint16_t *ids, int n) {
    int ks[MAXC];
    for (int i = 0; i < n; i++) ks[i] = cfg->kind_of[ids[i]];
    qsort(ks, (size_t)n, sizeof(int), cmp_int);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyUnicode_FromString(KIND_CODES[ks[i]]));
    return out;
}

static int seat_arg(const CoreObject *self, PyObject *arg) {
    long s = PyLong_AsLong(arg);
    if (s == -1 && PyErr_Occurred()) return -1;
    if (s < 0 || s >= self->co->cfg.players) {
        PyErr_Format(PyExc_ValueError, "no seat %ld: seats are 0 to %d", s, self->co->cfg.players - 1);
        return -1;
    }
    return (int)s;
}

/* which: 0 every card, 1 declared cards, 2 concealed cards known to all, 3 concealed cards */
static PyObject *cards_of(CoreObject *self, PyObject *args) {
    PyObject *seatobj;
    int which;
    if (!PyArg_ParseTuple(args, "Oi", &seatobj, &which)) return NULL;
    int seat = seat_arg(self, seatobj);
    if (seat < 0) return NULL;
    const State *st = &self->st;
    uint16_t ids[MAXH];
    int n = 0;
    for (int i = 0; i < st->hn[seat]; i++) {
        int c = st->hand[seat][i], declared = (st->mask[c].lo | st->mask[c].hi) != 0;
        if (which == 0 || (which == 1 && declared) || (which == 2 && !declared && st->known[c]) ||
            (which == 3 && !declared))
            ids[n++] = (uint16_t)c;
    }
    return codes_list(&self->co->cfg, ids, n);
}

/* hidden(): per seat the concealed cards nobody else knows (sorted codes), and the stock in
   draw order: the hidden part of a full position string. */
static PyObject *Core_hidden(CoreObject *self, PyObject *unused) {
    (void)unused;
    const State *st = &self->st;
    const Config *cfg = &self->co->cfg;
    PyObject *hands = PyList_New(cfg->players);
    if (!hands) return NULL;
    for (int s = 0; s < cfg->players; s++) {
        uint16_t ids[MAXH];
        int n = 0;
        for (int i = 0; i < st->hn[s]; i++) {
            int c = st->hand[s][i];
            if (!(st->mask[c].lo | st->mask[c].hi) && !st->known[c]) ids[n++] = (uint16_t)c;
        }
        PyList_SET_ITEM(hands, s, codes_list(cfg, ids, n));
    }
    PyObject *deck = PyList_New(st->nstock);
    for (int i = 0; deck && i < st->nstock; i++)
        PyList_SET_ITEM(deck, i, PyUnicode_FromString(KIND_CODES[cfg->kind_of[st->stock[st->nstock - 1 - i]]]));
    return Py_BuildValue("(NN)", hands, deck);
}

static PyObject *Core_points(CoreObject *self, PyObject *unused) {
    (void)unused;
    int64_t p[MAXP];
    st_points(&self->st, &self->co->cfg, p);
    PyObject *out = PyList_New(self->co->cfg.sides);
    for (int s = 0; s < self->co->cfg.sides; s++) PyList_SET_ITEM(out, s, PyLong_FromLongLong(p[s]));
    return out;
}

static PyObject *Core_parts(CoreObject *self, PyObject *unused) {
    (void)unused;
    PyObject *out = PyList_New(self->co->cfg.sides);
    for (int s = 0; s < self->co->cfg.sides; s++) {
        const int64_t *p = self->st.pts[s];
        PyList_SET_ITEM(out, s, Py_BuildValue("(LLLL)", p[0], p[1], p[2], p[3]));
    }
    return out;
}

static PyObject *Core_info(CoreObject *self, PyObject *unused) {
    (void)unused;
    const State *st = &self->st;
    const Config *cfg = &self->co->cfg;
    PyObject *trick = PyList_New(st->tn);
    for (int i = 0; i < st->tn; i++)
        PyList_SET_ITEM(trick, i, Py_BuildValue("(is)", st->tseat[i], KIND_CODES[cfg->kind_of[st->tcard[i]]]));
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:N}", "to_move", st->to_move, "phase", st->phase,
                         "stage", st->stage, "trump", st->trump, "leader", st->leader, "stock", st->nstock,
                         "turn_up", st->turn_up < 0 ? -1 : cfg->kind_of[st->turn_up], "tricks", st->ntricks,
                         "last_winner", st->last_winner, "declared", st->decl, "trick", trick);
}

static PyObject *Core_to_move(CoreObject *self, void *c) {
    (void)c;
    if (self->st.to_move < 0) Py_RETURN_NONE;
    return PyLong_FromLong(self->st.to_move);
}

static PyObject *Core_phase(CoreObject *self, void *c) {
    (void)c;
    static const char *names[] = {"play", "declare", "over"};
    return PyUnicode_FromString(names[self->st.phase]);
}

static PyObject *Core_is_over(CoreObject *self, void *c) {
    (void)c;
    return PyBool_FromLong(self->st.phase == PH_OVER);
}

static PyObject *Core_trump(CoreObject *self, void *c) {
    (void)c;
    if (self->st.trump < 0) Py_RETURN_NONE;
    char s[2] = {"SHDC"[self->st.trump], 0};
    return PyUnicode_FromString(s);
}

static PyObject *Core_stock_size(CoreObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->st.nstock);
}

static PyObject *Core_history_len(CoreObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->nhist);
}

/* replay(origin): the texts of this core's actions, stepped from origin (a clone taken when
   this core was built); used to rebuild the reference deal for the slow paths. */
static PyObject *Core_replay(CoreObject *self, PyObject *arg) {
    if (!PyObject_TypeCheck(arg, &CoreType)) return PyErr_Format(PyExc_TypeError, "a Core is needed");
    CoreObject *origin = (CoreObject *)arg;
    State *st = malloc(sizeof(State));
    if (!st) return PyErr_NoMemory();
    memcpy(st, &origin->st, sizeof(State));
    int start = origin->nhist;
    PyObject *out = PyList_New(0);
    for (int i = start; out && i < self->nhist; i++) {
        PyObject *t = move_text_object(st, &self->co->cfg, &self->hist[i], 0);
        if (!t || PyList_Append(out, t) < 0) Py_CLEAR(out);
        Py_XDECREF(t);
        st_apply(st, &self->co->cfg, &self->hist[i]);
    }
    free(st);
    return out;
}

static PyObject *Core_num_actions(CoreObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(self->co->num_actions);
}

static PyObject *Core_ids_ready(CoreObject *self, void *c) {
    (void)c;
    return PyBool_FromLong(self->co->ids_ready);
}

static PyGetSetDef Core_getset[] = {
    {"ids_ready", (getter)Core_ids_ready, NULL, "True once the action-id table is installed", NULL},
    {"to_move", (getter)Core_to_move, NULL, "seat to move, None once over", NULL},
    {"phase", (getter)Core_phase, NULL, "play, declare or over", NULL},
    {"is_over", (getter)Core_is_over, NULL, "True once the deal is over", NULL},
    {"trump", (getter)Core_trump, NULL, "trump suit letter or None", NULL},
    {"stock_size", (getter)Core_stock_size, NULL, "face-down cards left to draw", NULL},
    {"history_len", (getter)Core_history_len, NULL, "actions applied since built", NULL},
    {"num_actions", (getter)Core_num_actions, NULL, "size of the action-id range", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyObject *search_methods_playout(PyObject *self, PyObject *args);
PyObject *search_methods_solve(PyObject *self, PyObject *args);
PyObject *Core_load(PyObject *cls, PyObject *args);
PyObject *search_methods_pick(PyObject *self, PyObject *args);
PyObject *search_methods_determinize(PyObject *self, PyObject *args);
PyObject *search_methods_pimc(PyObject *self, PyObject *args);
PyObject *search_methods_pimc_hidden(PyObject *self, PyObject *args);
PyObject *search_methods_smart_features(PyObject *self, PyObject *args);
PyObject *search_methods_ismcts(PyObject *self, PyObject *args);
PyObject *search_methods_value(PyObject *self, PyObject *args);
PyObject *search_methods_rollout(PyObject *self, PyObject *args);
PyObject *Core_encode(PyObject *self, PyObject *args);

static PyMethodDef Core_methods[] = {
    {"load", (PyCFunction)Core_load, METH_VARARGS | METH_CLASS, "A core from state fields."},
    {"clone", (PyCFunction)Core_clone, METH_NOARGS, "An independent copy."},
    {"legal_texts", (PyCFunction)Core_legal_texts, METH_NOARGS, "Legal actions in notation."},
    {"legal_actions", (PyCFunction)Core_legal_actions, METH_NOARGS, "Legal actions as Action values."},
    {"legal_ids", (PyCFunction)Core_legal_ids, METH_NOARGS, "Legal action ids, ascending."},
    {"apply_index", (PyCFunction)Core_apply_index, METH_O, "Apply the i-th legal action."},
    {"apply_id", (PyCFunction)Core_apply_id, METH_O, "Apply the legal action with this id."},
    {"legal_pairs", (PyCFunction)Core_legal_pairs, METH_NOARGS, "(id, Action) pairs, ascending by id."},
    {"cards", (PyCFunction)cards_of, METH_VARARGS, "Cards of a seat (0 all, 1 table, 2 known, 3 concealed)."},
    {"points", (PyCFunction)Core_points, METH_NOARGS, "Points per side."},
    {"parts", (PyCFunction)Core_parts, METH_NOARGS, "Per side: melds, tricks, last trick, bonuses."},
    {"info", (PyCFunction)Core_info, METH_NOARGS, "Small state values as a dict."},
    {"replay", (PyCFunction)Core_replay, METH_O, "Texts of the actions applied since origin."},
    {"playout", (PyCFunction)search_methods_playout, METH_VARARGS, "Play to the end with a policy."},
    {"rollout", (PyCFunction)search_methods_rollout, METH_VARARGS, "One search playout's margin for a side."},
    {"solve", (PyCFunction)search_methods_solve, METH_VARARGS, "Exact stage-2 values."},
    {"policy_pick", (PyCFunction)search_methods_pick, METH_VARARGS, "Index of the policy's action."},
    {"determinize", (PyCFunction)search_methods_determinize, METH_VARARGS, "A copy, unseen cards reshuffled."},
    {"pimc", (PyCFunction)search_methods_pimc, METH_VARARGS, "Margins of moves across determinized worlds."},
    {"pimc_hidden", (PyCFunction)search_methods_pimc_hidden, METH_VARARGS, "The unseen concealed cards of pimc's worlds."},
    {"smart_features", (PyCFunction)search_methods_smart_features, METH_VARARGS, "The smart policy's values and learned features."},
    {"ismcts", (PyCFunction)search_methods_ismcts, METH_VARARGS, "IS-MCTS with a PUCT prior: root visits and values."},
    {"value", (PyCFunction)search_methods_value, METH_VARARGS, "value(seat[, packed]): value features, or a model's value."},
    {"hidden", (PyCFunction)Core_hidden, METH_NOARGS, "Concealed unknown cards per seat, and the stock."},
    {"legal_id_texts", (PyCFunction)Core_legal_id_texts, METH_NOARGS, "(id, text) pairs, ascending by id."},
    {"encode", (PyCFunction)Core_encode, METH_VARARGS, "encode(seat, out): the observation tensor."},
    {NULL, NULL, 0, NULL}};

PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bezique.fast._engine.Core",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One deal in the compiled engine: Core(config, dealer, seed) shuffles one.",
    .tp_new = Core_new,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* Helpers for search.c: the state and config of a Core, and a new Core around a state. */
State *core_state(PyObject *o) { return &((CoreObject *)o)->st; }
const Config *core_config(PyObject *o) { return &((CoreObject *)o)->co->cfg; }
int core_check(PyObject *o) { return PyObject_TypeCheck(o, &CoreType); }
void core_touch(PyObject *o) { invalidate((CoreObject *)o); }

/* --- module ------------------------------------------------------------------------------- */
static PyObject *set_types(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *a, *i;
    if (!PyArg_ParseTuple(args, "OO", &a, &i)) return NULL;
    Py_XDECREF(ActionType);
    Py_XDECREF(IllegalType);
    Py_INCREF(a);
    Py_INCREF(i);
    ActionType = a;
    IllegalType = i;
    Py_RETURN_NONE;
}

PyObject *search_simulate(PyObject *m, PyObject *args);
PyObject *search_duel(PyObject *m, PyObject *args);

static PyMethodDef module_methods[] = {
    {"set_types", set_types, METH_VARARGS, "Tell the engine the Action and IllegalAction types."},
    {"simulate", search_simulate, METH_VARARGS, "simulate(config, n, seed, policy) -> bytes of int64 points."},
    {"duel", search_duel, METH_VARARGS, "duel(config, decks, seed, a, b, max_nodes) -> bytes of double margins."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "bezique.fast._engine",
                                       "The compiled bezique engine.", -1, module_methods, NULL, NULL, NULL, NULL};

PyObject *config_type(void) { return (PyObject *)&ConfigType; }
const Config *config_of(PyObject *o) { return &((ConfigObject *)o)->cfg; }

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&ConfigType) < 0 || PyType_Ready(&CoreType) < 0) return NULL;
    solver_setup();
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&ConfigType);
    Py_INCREF(&CoreType);
    PyModule_AddObject(m, "Config", (PyObject *)&ConfigType);
    PyModule_AddObject(m, "Core", (PyObject *)&CoreType);
    PyModule_AddIntConstant(m, "MAX_CARDS", MAXC);
    return m;
}
