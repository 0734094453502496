/* Whole deals and playouts inside C (module functions of bezique.fast._engine). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "search.h"

State *core_state(PyObject *o);
const Config *core_config(PyObject *o);
int core_check(PyObject *o);
void core_touch(PyObject *o);
PyObject *config_type(void);

const Config *config_of(PyObject *o);

/* The uniform random choice where every card may be played and none is declared: one
   action per distinct kind, as st_moves lists them, without building the list. */
static int random_plain_play(State *st, const Config *cfg, Rng *rng) {
    int seat = st->to_move;
    if (st->phase != PH_PLAY || st->ntable[seat] || (st->tn && (st->stage != 1 || cfg->s1_follow))) return 0;
    const uint16_t *h = st->hand[seat];
    int hn = st->hn[seat], distinct = 0, prev = -1;
    for (int i = 0; i < hn; i++)
        if (cfg->kind_of[h[i]] != prev) {
            prev = cfg->kind_of[h[i]];
            distinct++;
        }
    int pick = (int)rng_below(rng, (uint32_t)distinct);
    prev = -1;
    for (int i = 0; i < hn; i++)
        if (cfg->kind_of[h[i]] != prev) {
            prev = cfg->kind_of[h[i]];
            if (pick-- == 0) {
                Move mv = {MV_PLAY, 0, 1, {h[i]}};
                st_apply(st, cfg, &mv);
                return 1;
            }
        }
    return 0;
}

int play_out(State *st, const Config *cfg, int policy, Rng *rng) {
    static Move moves_buf[MAXMOVES];
    (void)policy;
    while (st->phase != PH_OVER) {
        if (random_plain_play(st, cfg, rng)) continue;
        int n = st_moves(st, cfg, moves_buf, MAXMOVES);
        if (n <= 0) return -1;
        st_apply(st, cfg, &moves_buf[rng_below(rng, (uint32_t)n)]);
    }
    return 0;
}

static int policy_of(const char *name) {
    if (!strcmp(name, "random")) return POLICY_RANDOM;
    PyErr_Format(PyExc_ValueError, "unknown policy %R: the compiled engine has 'random'", PyUnicode_FromString(name));
    return -1;
}

/* simulate(config, n, seed, policy): n deals from seed; points per side, as bytes of int64. */
PyObject *search_simulate(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *co;
    long long n;
    unsigned long long seed;
    const char *pname;
    if (!PyArg_ParseTuple(args, "O!LKs", (PyTypeObject *)config_type(), &co, &n, &seed, &pname)) return NULL;
    int policy = policy_of(pname);
    if (policy < 0) return NULL;
    if (n < 0) return PyErr_Format(PyExc_ValueError, "n must be at least 0: got %lld", n);
    const Config *cfg = config_of(co);
    int sides = cfg->sides;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n * sides * (long long)sizeof(int64_t)));
    if (!out) return NULL;
    int64_t *pts = (int64_t *)PyBytes_AS_STRING(out);
    State *st = malloc(sizeof(State));
    if (!st) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    int failed = 0;
    /* the engine keeps scratch space in statics: the GIL is held throughout */
    for (long long i = 0; i < n && !failed; i++) {
        Rng rng;
        rng_seed(&rng, seed * 0x9e3779b97f4a7c15ULL + (uint64_t)i);
        st_new(st, cfg, (int)(i % cfg->players), &rng);
        if (play_out(st, cfg, policy, &rng) < 0) failed = 1;
        st_points(st, cfg, pts + i * sides);
    }
    free(st);
    if (failed) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_RuntimeError, "too many legal actions for the compiled engine");
        return NULL;
    }
    return out;
}

/* playout(policy, seed): points per side at the end of the deal played on from this state
   (the state itself is left as it is). */
PyObject *search_methods_playout(PyObject *self, PyObject *args) {
    const char *pname;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "sK", &pname, &seed)) return NULL;
    int policy = policy_of(pname);
    if (policy < 0) return NULL;
    const Config *cfg = core_config(self);
    State *st = malloc(sizeof(State));
    if (!st) return PyErr_NoMemory();
    memcpy(st, core_state(self), sizeof(State));
    Rng rng;
    rng_seed(&rng, seed);
    int bad = play_out(st, cfg, policy, &rng) < 0;
    int64_t p[MAXP];
    st_points(st, cfg, p);
    free(st);
    if (bad) {
        PyErr_SetString(PyExc_RuntimeError, "too many legal actions for the compiled engine");
        return NULL;
    }
    PyObject *out = PyList_New(cfg->sides);
    for (int s = 0; s < cfg->sides; s++) PyList_SET_ITEM(out, s, PyLong_FromLongLong(p[s]));
    return out;
}

PyObject *search_methods_solve(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    PyErr_SetString(PyExc_NotImplementedError, "the stage-2 solver is not in the compiled engine yet");
    return NULL;
}

PyObject *search_methods_determinize(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    PyErr_SetString(PyExc_NotImplementedError, "determinization is not in the compiled engine yet");
    return NULL;
}
