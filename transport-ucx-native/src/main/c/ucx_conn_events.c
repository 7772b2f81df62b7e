/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * What a connection's completions report: a data message's receive ended (its credits counted), credits
 * arrived, the connection failed, the peer is done; Java learns of each from the connection's state block
 * and its worker's ready list. The connection core (ucx_conn.c) and the tag path (ucx_tag_path.c) both
 * report through this file, which calls neither, so that the core calls the path directly.
 */
#include <string.h>
#include <sys/epoll.h>
#include "ucx_conn_events.h"
#include "ucx_worker.h"

static uint32_t read_header(const void *message) {
    uint32_t credits;
    memcpy(&credits, message, sizeof(credits));
    return credits;
}

/*
 * Whether a message of length bytes (header included) that a receive of this connection took
 * carries the connection's message key: one that does not came from a process that knows the tag
 * but not the hello's key, and is dropped as a stray instead of reaching the connection.
 */
int nucx_conn_message_has_key(const nucx_conn *conn, const void *message, size_t length) {
    uint32_t key;
    if (length < NUCX_HEADER_BYTES) {
        return 1; /* too short to carry one: the receive fails the connection as before */
    }
    memcpy(&key, (const char *) message + NUCX_HEADER_KEY_OFFSET, sizeof(key));
    return key == conn->message_key;
}

/*
 * Lists the connection on its worker's ready list for Java to dispatch, once until Java clears its
 * NOTIFIED word.
 */
void nucx_conn_notify(nucx_conn *conn) {
    volatile int32_t *state = conn->state;
    if (state[NUCX_STATE_NOTIFIED]) {
        return;
    }
    state[NUCX_STATE_NOTIFIED] = 1;
    int32_t *ready = conn->worker->ready;
    if (ready[NUCX_READY_COUNT] == ready[NUCX_READY_CAPACITY]) {
        /* Cannot happen (see enum nucx_ready_word); if it did, Java dispatches every connection. */
        ready[NUCX_READY_OVERFLOWED] = 1;
        return;
    }
    ready[NUCX_READY_HEADER_WORDS + ready[NUCX_READY_COUNT]] = conn->index;
    ready[NUCX_READY_COUNT]++;
}

/* error: a ucs_status_t or a NUCX_ERR_* code; the first one sticks. */
void nucx_conn_fail(nucx_conn *conn, int32_t error) {
    if (conn->state[NUCX_STATE_ERROR] == 0) {
        conn->state[NUCX_STATE_ERROR] = error;
    }
    nucx_conn_notify(conn);
}

/*
 * A credit is a receive slot the peer reposted after consuming one of our messages, so the total
 * can never exceed the messages we sent; more would let us overrun the peer's window. Compared
 * modulo 2^32 like the counters themselves.
 */
static void add_credits(nucx_conn *conn, uint32_t credits) {
    uint32_t total = (uint32_t) conn->state[NUCX_STATE_CREDITS] + credits;
    if ((int32_t) (conn->sent - total) < 0 || credits > (uint32_t) INT32_MAX) {
        nucx_conn_fail(conn, NUCX_ERR_BAD_CREDITS);
        return;
    }
    conn->state[NUCX_STATE_CREDITS] = (int32_t) total;
}

/*
 * A data message arrived in a slot (its header carries the credits the peer returns), or its receive
 * failed with status.
 */
void nucx_conn_recv_done(nucx_conn *conn, int slot, ucs_status_t status, size_t length) {
    if (status == UCS_OK && length < NUCX_HEADER_BYTES) {
        status = UCS_ERR_INVALID_PARAM;
    }
    if (status == UCS_OK) {
        nucx_recv_state(conn)[slot] = (int32_t) (length - NUCX_HEADER_BYTES);
        add_credits(conn, read_header(conn->recv_bufs[slot]));
    } else {
        nucx_recv_state(conn)[slot] = (int32_t) status;
    }
    nucx_conn_notify(conn);
}

/*
 * The credits a message's header returns: a data message's or a credit message's, once it arrived whole
 * with the connection's key.
 */
void nucx_conn_take_credits(nucx_conn *conn, const void *message) {
    add_credits(conn, read_header(message));
}

/* ---- the end of the receives ---- */

static void cancel_request(ucp_worker_h worker, void *req) {
    if (req != NULL && req != NUCX_REQ_POSTING) {
        ucp_request_cancel(worker, req);
    }
}

/* Cancels the data receives posted through UCX: when the connection parks, and when the peer is done. */
void nucx_conn_cancel_data_receives(nucx_conn *conn) {
    for (int i = 0; i < conn->recv_slots; i++) {
        cancel_request(conn->worker->worker, conn->recv_reqs[i]);
    }
}

static void cancel_receives(nucx_conn *conn) {
    nucx_conn_cancel_data_receives(conn);
    cancel_request(conn->worker->worker, conn->ctrl_recv_req);
}

/*
 * The peer will send nothing more (or we stop waiting for it): release the receives, and stop watching
 * the side channel in the loop's set (where the tag path lingers on it).
 */
void nucx_conn_peer_done(nucx_conn *conn) {
    if (conn->linger.peer_done) {
        return;
    }
    conn->linger.peer_done = 1;
    cancel_receives(conn);
    if (conn->linger.side_watched && conn->linger.side_fd >= 0) {
        epoll_ctl(conn->worker->epoll_fd, EPOLL_CTL_DEL, conn->linger.side_fd, NULL);
        conn->linger.side_watched = 0;
    }
}
