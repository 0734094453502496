/* Shared by the Python binding's sources (pymod.c, config.c, load.c, encode.c): the compiled-rules object. */
#ifndef BEZIQUE_FAST_PYMOD_H
#define BEZIQUE_FAST_PYMOD_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "engine.h"

/* The blocks of the observation tensor, in the order Config.set_encoding takes their offsets
 * (-1: not in this layout). */
enum {
    EB_HAND, EB_TABLE, EB_TABLE_CLASS, EB_KNOWN, EB_PLAYED, EB_TRICK, EB_LEADER, EB_MELDS,
    EB_EXCHANGES, EB_LIVE, EB_CB, EB_TRUMP, EB_TURN_UP, EB_STOCK, EB_HAND_SIZES, EB_POINTS,
    EB_PHASE, EB_STAGE, EB_TO_MOVE, EB_DEALER, EB_DECLARED, EB_EXCHANGED, EB_TRICKS_WON,
    ENC_BLOCKS
};

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
    /* the observation layout of bezique.envs.encoding (Config.set_encoding; encode.c) */
    int enc_ready, enc_size, enc_k, enc_m;
    int enc_off[ENC_BLOCKS];
    int8_t enc_kind[NK], enc_col[64], enc_class[64];
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
