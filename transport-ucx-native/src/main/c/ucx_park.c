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
 * The sweep finds a message's connection by its id in the worker's table (ucx_ids.c).
 */
#include <stdlib.h>
#include "ucx_conn.h"
#include "ucx_park.h"
#include "ucx_stray.h"
#include "ucx_worker.h"

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
