/* Shared by the Python binding's sources (pymod.c, config.c): the compiled-rules object. */
#ifndef BEZIQUE_FAST_PYMOD_H
#define BEZIQUE_FAST_PYMOD_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "engine.h"

/* --- action ids ----------------------------------------------------------------------------- */
#define KEYLEN 24
typedef struct {
    uint8_t key[KEYLEN];
    int32_t id; /* -1: empty */
} IdSlot;

typedef struct {
    PyObject_HEAD Config cfg;
    int ids_ready;
    int pass_id, exch_id, partner_id, alt_base, num_actions;
    int play_off[NK];
    int hsize;
    IdSlot *table;
} ConfigObject;

static inline uint64_t key_hash(const uint8_t *k) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < KEYLEN; i++) h = (h ^ k[i]) * 1099511628211ULL;
    return h;
}

static inline int lookup_meld(const ConfigObject *co, const uint8_t *key) {
    uint64_t h = key_hash(key) & (uint64_t)(co->hsize - 1);
    while (co->table[h].id >= 0) {
        if (!memcmp(co->table[h].key, key, KEYLEN)) return co->table[h].id;
        h = (h + 1) & (uint64_t)(co->hsize - 1);
    }
    return -1;
}

typedef struct {
    PyObject_HEAD ConfigObject *co;
    State st;
    int nmoves; /* -1: not worked out */
    Move *moves;
    int *ids; /* action id of each move, or NULL */
    int nhist, caphist;
    Move *hist;
} CoreObject;

extern PyTypeObject ConfigType, CoreType;
CoreObject *core_alloc(ConfigObject *co);
int get_ints(PyObject *seq, int64_t *out, int n, const char *what);

#endif
