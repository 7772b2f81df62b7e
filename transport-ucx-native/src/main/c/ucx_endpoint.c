/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * One UCP endpoint per peer worker. Each endpoint costs memory of its own (UCX's shared-memory
 * transports map the peer's receive FIFO once per endpoint) and a wire-up when it is created, while
 * what tells the connections of two workers apart is already in the tags (ucx_native.h). So the
 * connections of a worker to one peer worker share its endpoint: the worker's table finds the
 * endpoint by the peer's address, its owner key and the error handling mode, the connection core
 * (ucx_conn.c) joins connections to it and closes it with its last one. The owner key is one the
 * peer proved it holds in the handshake: a peer that names another process's worker address under
 * a key of its own gets an endpoint of its own, never the one of that worker's real connections.
 *
 * The table is a hash of the address bytes with chaining; only connection setup looks into it.
 */
#include <stdlib.h>
#include <string.h>
#include "ucx_endpoint.h"
#include "ucx_worker.h"

#define NUCX_ENDPOINT_FIRST_BUCKETS 16u

static uint64_t hash_bytes(uint64_t hash, const unsigned char *bytes, size_t length) {
    for (size_t i = 0; i < length; i++) {
        hash = (hash ^ bytes[i]) * 0x100000001B3ull;
    }
    return hash;
}

static uint64_t hash_of(const void *address, size_t length, const unsigned char *owner, int err_mode) {
    uint64_t hash = hash_bytes(0xCBF29CE484222325ull ^ (uint64_t) err_mode, address, length);
    return hash_bytes(hash, owner, NUCX_OWNER_BYTES);
}

static nucx_endpoint **bucket_of(nucx_worker *w, uint64_t hash) {
    return &w->ep_table[hash & (w->ep_buckets - 1)];
}

static int grow(nucx_worker *w) {
    uint32_t buckets = w->ep_buckets == 0 ? NUCX_ENDPOINT_FIRST_BUCKETS : 2 * w->ep_buckets;
    nucx_endpoint **table = calloc(buckets, sizeof(nucx_endpoint *));
    if (table == NULL) {
        return -1;
    }
    for (uint32_t i = 0; i < w->ep_buckets; i++) {
        nucx_endpoint *e = w->ep_table[i];
        while (e != NULL) {
            nucx_endpoint *next = e->next_listed;
            nucx_endpoint **bucket = &table[e->hash & (buckets - 1)];
            e->next_listed = *bucket;
            *bucket = e;
            e = next;
        }
    }
    free(w->ep_table);
    w->ep_table = table;
    w->ep_buckets = buckets;
    return 0;
}

nucx_endpoint *nucx_endpoint_find(nucx_worker *w, const void *address, size_t length,
                                  const unsigned char *owner, int err_mode) {
    if (w->ep_listed == 0) {
        return NULL;
    }
    uint64_t hash = hash_of(address, length, owner, err_mode);
    for (nucx_endpoint *e = *bucket_of(w, hash); e != NULL; e = e->next_listed) {
        if (e->hash == hash && e->err_mode == err_mode && e->address_length == length &&
            memcmp(e->owner, owner, NUCX_OWNER_BYTES) == 0 && memcmp(e->address, address, length) == 0) {
            return e;
        }
    }
    return NULL;
}

nucx_endpoint *nucx_endpoint_open(nucx_worker *w, const void *address, size_t length,
                                  const unsigned char *owner, int err_mode,
                                  ucp_err_handler_cb_t on_error, ucs_status_t *status) {
    if (2 * (w->ep_listed + 1) > w->ep_buckets && grow(w) != 0) {
        *status = UCS_ERR_NO_MEMORY;
        return NULL;
    }
    nucx_endpoint *e = calloc(1, sizeof(*e) + length);
    if (e == NULL) {
        *status = UCS_ERR_NO_MEMORY;
        return NULL;
    }
    e->worker = w;
    memcpy(e->address, address, length);
    memcpy(e->owner, owner, NUCX_OWNER_BYTES);
    e->address_length = length;
    e->err_mode = err_mode;
    e->hash = hash_of(address, length, owner, err_mode);
    ucp_ep_params_t params = {
        .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
        .address = (const ucp_address_t *) e->address,
        .err_mode = (ucp_err_handling_mode_t) err_mode,
    };
    if (err_mode == UCP_ERR_HANDLING_MODE_PEER) {
        params.field_mask |= UCP_EP_PARAM_FIELD_ERR_HANDLER;
        params.err_handler.cb = on_error;
        params.err_handler.arg = e;
    }
    *status = ucp_ep_create(w->worker, &params, &e->ep);
    if (*status != UCS_OK) {
        free(e);
        return NULL;
    }
    nucx_endpoint **bucket = bucket_of(w, e->hash);
    e->next_listed = *bucket;
    *bucket = e;
    e->listed = 1;
    w->ep_listed++;
    return e;
}

void nucx_endpoint_unlist(nucx_worker *w, nucx_endpoint *e) {
    if (!e->listed) {
        return;
    }
    for (nucx_endpoint **link = bucket_of(w, e->hash); *link != NULL; link = &(*link)->next_listed) {
        if (*link == e) {
            *link = e->next_listed;
            break;
        }
    }
    e->next_listed = NULL;
    e->listed = 0;
    w->ep_listed--;
}

void nucx_endpoint_free_if_done(nucx_endpoint *e) {
    if (e->users == 0 && !e->listed && !e->wiring && !e->closing) {
        free(e);
    }
}

void nucx_endpoint_table_free(nucx_worker *w) {
    free(w->ep_table);
    w->ep_table = NULL;
    w->ep_buckets = 0;
    w->ep_listed = 0;
}
