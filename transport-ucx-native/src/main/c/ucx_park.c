/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Parked connections. A connection on the tag path that has received nothing for a while gives its
 * receive buffers back to Java's pool and keeps no data receive posted (java_conn_park in
 * ucx_conn.c); so does every connection from its creation until its first message. Its peer still
 * holds the credits of the whole window, so messages may come at any time: UCX keeps them as
 * unexpected messages, the sweep after each productive progress (ucx_stray.c) finds them, and the
 * core holds each one that is for a parked connection, inside its window and with its key
 * (nucx_conn_take_unexpected). Java, told through the state block, posts the receives again; the
 * receive of a held message's sequence number takes that message (ucx_tag_path.c). So an idle
 * connection holds no receive memory, and what receives need is drawn from the pool only while
 * traffic flows.
 *
 * The table is open addressing on the connection id, linear probing, deletion by backward shift: a
 * message's lookup costs the same with ten or ten thousand parked connections.
 */
#include <stdlib.h>
#include "ucx_conn.h"
#include "ucx_park.h"
#include "ucx_stray.h"
#include "ucx_worker.h"

#define NUCX_PARK_FIRST_CAPACITY 64u

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
    uint32_t capacity = w->parked_capacity == 0 ? NUCX_PARK_FIRST_CAPACITY : 2 * w->parked_capacity;
    nucx_conn **table = calloc(capacity, sizeof(nucx_conn *));
    if (table == NULL) {
        return -1;
    }
    for (uint32_t i = 0; i < w->parked_capacity; i++) {
        if (w->parked_table[i] != NULL) {
            place(table, capacity - 1, w->parked_table[i]);
        }
    }
    free(w->parked_table);
    w->parked_table = table;
    w->parked_capacity = capacity;
    return 0;
}

/* Returns 0, or -1 when the table could not grow (the connection then stays unparked). */
int nucx_park_add(nucx_worker *w, nucx_conn *conn) {
    if (2 * (w->parked_count + 1) > w->parked_capacity && grow(w) != 0) {
        return -1;
    }
    place(w->parked_table, w->parked_capacity - 1, conn);
    w->parked_count++;
    return 0;
}

nucx_conn *nucx_park_find(const nucx_worker *w, uint32_t id) {
    if (w->parked_count == 0) {
        return NULL;
    }
    uint32_t mask = w->parked_capacity - 1;
    for (uint32_t i = home_of(id, mask); w->parked_table[i] != NULL; i = (i + 1) & mask) {
        if (w->parked_table[i]->id == id) {
            return w->parked_table[i];
        }
    }
    return NULL;
}

void nucx_park_remove(nucx_worker *w, nucx_conn *conn) {
    if (w->parked_count == 0) {
        return;
    }
    uint32_t mask = w->parked_capacity - 1;
    uint32_t hole = home_of(conn->id, mask);
    while (w->parked_table[hole] != conn) {
        if (w->parked_table[hole] == NULL) {
            return;
        }
        hole = (hole + 1) & mask;
    }
    w->parked_table[hole] = NULL;
    w->parked_count--;
    /* Entries after the hole that probed past it move into it, so that no lookup stops short. */
    for (uint32_t i = (hole + 1) & mask; w->parked_table[i] != NULL; i = (i + 1) & mask) {
        uint32_t home = home_of(w->parked_table[i]->id, mask);
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            w->parked_table[hole] = w->parked_table[i];
            w->parked_table[i] = NULL;
            hole = i;
        }
    }
}

/* The table only: its connections are unparked by their close first. */
void nucx_park_free(nucx_worker *w) {
    free(w->parked_table);
    w->parked_table = NULL;
    w->parked_capacity = 0;
    w->parked_count = 0;
}

/*
 * Holds a message for a parked connection: -1 when it holds all it can, or that sequence number
 * NUCX_HELD_PER_SLOT times already.
 */
int nucx_held_put(nucx_conn *conn, ucp_tag_message_h message, uint32_t seq, size_t length) {
    if (conn->held_count == conn->recv_slots * NUCX_HELD_PER_SLOT) {
        return -1;
    }
    int copies = 0;
    for (int i = 0; i < conn->held_count; i++) {
        copies += conn->held[i].seq == seq;
    }
    if (copies == NUCX_HELD_PER_SLOT) {
        return -1;
    }
    conn->held[conn->held_count++] = (nucx_held) {message, seq, (uint32_t) length};
    return 0;
}

/* Takes the held message of a sequence field, or returns NULL. */
ucp_tag_message_h nucx_held_take(nucx_conn *conn, uint32_t seq, size_t *length) {
    for (int i = 0; i < conn->held_count; i++) {
        if (conn->held[i].seq == seq) {
            ucp_tag_message_h message = conn->held[i].message;
            *length = conn->held[i].length;
            conn->held[i] = conn->held[--conn->held_count];
            return message;
        }
    }
    return NULL;
}

/* Discards every message the connection still holds (it closes, or none of its receives took them). */
void nucx_held_discard(nucx_conn *conn) {
    while (conn->held_count > 0) {
        nucx_discard_message(conn->worker, conn->held[--conn->held_count].message);
    }
}

/*
 * Strays dropped by every worker of the process since it started: messages the sweep found that no
 * connection takes (ucx_stray.c), held ones no receive took, and ones a receive took without the
 * connection's message key (ucx_tag_path.c).
 */
static uint64_t strays_dropped;

void nucx_count_strays(uint64_t count) {
    __atomic_fetch_add(&strays_dropped, count, __ATOMIC_RELAXED);
}

uint64_t nucx_strays_counted(void) {
    return __atomic_load_n(&strays_dropped, __ATOMIC_RELAXED);
}

static void discard_callback(void *request, ucs_status_t status, const ucp_tag_recv_info_t *info, void *user_data) {
    (void) status; (void) info; (void) user_data;
    ucp_request_free(request);
}

/* Receives a message UCX keeps into the worker's scratch buffer, which nobody reads. */
void nucx_discard_message(nucx_worker *w, ucp_tag_message_h message) {
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK,
        .cb.recv = discard_callback,
    };
    /* Completed at once, failed, or freed by the callback: nothing to keep either way. */
    ucp_tag_msg_recv_nbx(w->worker, w->stray_buffer, NUCX_STRAY_BUFFER_BYTES, message, &param);
}
