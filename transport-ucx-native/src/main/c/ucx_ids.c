/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * A worker's connections by id, open and closing ones: a new connection's random id is checked
 * against it to be unique, and the sweep of unexpected messages (ucx_stray.c) finds the connection
 * a message's tag names, to hold the message if that connection is parked (ucx_conn.c). Open
 * addressing on the id, linear probing, deletion by backward shift: both cost the same with ten or
 * ten thousand connections.
 */
#include <stdlib.h>
#include "ucx_conn.h"
#include "ucx_ids.h"
#include "ucx_worker.h"

#define NUCX_IDS_FIRST_CAPACITY 64u

static uint32_t home_of(uint32_t id, uint32_t mask) {
    return (id * 2654435761u) & mask;
}

static void place(nucx_conn **table, uint32_t mask, nucx_conn *conn) {
    uint32_t i = home_of(conn->id, mask);
    while (table[i] != NULL) {
        i = (i + 1) & mask;
    }
    table[i] = conn;
}

static int grow(nucx_worker *w) {
    uint32_t capacity = w->ids_capacity == 0 ? NUCX_IDS_FIRST_CAPACITY : 2 * w->ids_capacity;
    nucx_conn **table = calloc(capacity, sizeof(nucx_conn *));
    if (table == NULL) {
        return -1;
    }
    for (uint32_t i = 0; i < w->ids_capacity; i++) {
        if (w->conns_by_id[i] != NULL) {
            place(table, capacity - 1, w->conns_by_id[i]);
        }
    }
    free(w->conns_by_id);
    w->conns_by_id = table;
    w->ids_capacity = capacity;
    return 0;
}

/* Returns 0, or -1 when the table could not grow. */
int nucx_ids_add(nucx_worker *w, nucx_conn *conn) {
    if (2 * (w->ids_count + 1) > w->ids_capacity && grow(w) != 0) {
        return -1;
    }
    place(w->conns_by_id, w->ids_capacity - 1, conn);
    w->ids_count++;
    return 0;
}

nucx_conn *nucx_ids_find(const nucx_worker *w, uint32_t id) {
    if (w->ids_count == 0) {
        return NULL;
    }
    uint32_t mask = w->ids_capacity - 1;
    for (uint32_t i = home_of(id, mask); w->conns_by_id[i] != NULL; i = (i + 1) & mask) {
        if (w->conns_by_id[i]->id == id) {
            return w->conns_by_id[i];
        }
    }
    return NULL;
}

void nucx_ids_remove(nucx_worker *w, nucx_conn *conn) {
    if (w->ids_count == 0) {
        return;
    }
    uint32_t mask = w->ids_capacity - 1;
    uint32_t hole = home_of(conn->id, mask);
    while (w->conns_by_id[hole] != conn) {
        if (w->conns_by_id[hole] == NULL) {
            return;
        }
        hole = (hole + 1) & mask;
    }
    w->conns_by_id[hole] = NULL;
    w->ids_count--;
    /* Entries after the hole that probed past it move into it, so that no lookup stops short. */
    for (uint32_t i = (hole + 1) & mask; w->conns_by_id[i] != NULL; i = (i + 1) & mask) {
        uint32_t home = home_of(w->conns_by_id[i]->id, mask);
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            w->conns_by_id[hole] = w->conns_by_id[i];
            w->conns_by_id[i] = NULL;
            hole = i;
        }
    }
}

/* The table only: the connections are freed by their close. */
void nucx_ids_free(nucx_worker *w) {
    free(w->conns_by_id);
    w->conns_by_id = NULL;
    w->ids_capacity = 0;
    w->ids_count = 0;
}
