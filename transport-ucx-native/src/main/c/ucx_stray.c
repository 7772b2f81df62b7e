/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Stray messages: tagged messages that no posted receive wanted. A peer that follows the protocol
 * never sends one to a live connection: every receive of the window is posted before the handshake
 * and reposted before its credit goes back, so a data message that waits in UCX's unexpected queue
 * was sent without credit or repeats a sequence number. Messages still in flight when a connection
 * closed (its receives cancelled), or aimed at ids that do not exist, land there too. UCX would keep
 * all of them until the worker is destroyed, so the loop drains them after each productive progress
 * call and fails the live connection a stray data message was aimed at.
 */
#include "ucx_native.h"

/* Strays drained per sweep, so that a flood cannot hold the loop for long. */
#define NUCX_STRAYS_PER_SWEEP 64

static void stray_recv_callback(void *request, ucs_status_t status, const ucp_tag_recv_info_t *info,
                                void *user_data) {
    (void) status; (void) info; (void) user_data;
    ucp_request_free(request);
}

static nucx_conn *live_conn(nucx_worker *w, uint32_t id) {
    for (nucx_conn *c = w->live; c != NULL; c = c->next_live) {
        if (c->id == id) {
            return c;
        }
    }
    return NULL;
}

/* Control messages are only stray while their connection is failing or closing: nothing to blame. */
static void blame(nucx_worker *w, ucp_tag_t tag) {
    if (tag & NUCX_TAG_CTRL_BIT) {
        return;
    }
    nucx_conn *conn = live_conn(w, (uint32_t) (tag >> NUCX_TAG_ID_SHIFT));
    if (conn != NULL && !conn->closing) {
        nucx_conn_fail(conn, NUCX_ERR_OUTSIDE_WINDOW);
    }
}

/* Receives the message into the worker's scratch buffer, which nobody reads. */
static void drop(nucx_worker *w, ucp_tag_message_h message) {
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK,
        .cb.recv = stray_recv_callback,
    };
    /* Completed at once, failed, or freed by the callback: nothing to keep either way. */
    ucp_tag_msg_recv_nbx(w->worker, w->stray_buffer, NUCX_STRAY_BUFFER_BYTES, message, &param);
}

int nucx_sweep_strays(nucx_worker *w) {
    int swept = 0;
    while (swept < NUCX_STRAYS_PER_SWEEP) {
        ucp_tag_recv_info_t info;
        ucp_tag_message_h message = ucp_tag_probe_nb(w->worker, 0, 0, 1, &info);
        if (message == NULL) {
            break;
        }
        blame(w, info.sender_tag);
        drop(w, message);
        swept++;
    }
    return swept;
}

/*
 * Drops every stray before the worker is destroyed: messages that arrived for connections closed
 * since the last productive progress call would otherwise each be reported by UCX as a warning of an
 * unexpected message nobody received.
 */
void nucx_drop_all_strays(nucx_worker *w) {
    while (nucx_sweep_strays(w) == NUCX_STRAYS_PER_SWEEP) {
        /* a full sweep: more may wait */
    }
}
