/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The tag path: a connection's data messages as UCP tagged messages on its endpoint, one per send
 * slot, each received into the slot posted for its sequence number (see the tag layout in
 * ucx_native.h). The connection core (ucx_conn.c) owns the endpoint, the credit messages and the
 * close, and calls this file; what the completions report goes through ucx_conn_events.c.
 */
#include <string.h>
#include <sys/epoll.h>
#include "ucx_conn.h"
#include "ucx_conn_events.h"
#include "ucx_park.h"
#include "ucx_tag_path.h"
#include "ucx_worker.h"

/* ---- receive ---- */


/*
 * A receive took a message whole but it lacks the connection's message key: someone who knows the
 * tag (not the hello) sent it. It is dropped as a stray and the receive stays for the peer's.
 */
static int forged(nucx_conn *conn, int slot, ucs_status_t status, size_t length) {
    if (status != UCS_OK || nucx_conn_message_has_key(conn, conn->recv_bufs[slot], length)) {
        return 0;
    }
    nucx_count_strays(1);
    return 1;
}

static void recv_callback(void *request, ucs_status_t status, const ucp_tag_recv_info_t *info, void *user_data) {
    nucx_slot_ref *ref = user_data;
    nucx_conn *conn = ref->conn;
    if (conn == NULL) {
        /* A receive its connection let go of (nucx_conn_orphan_receives): nothing to deliver it to. */
        ucp_request_free(request);
        return;
    }
    int inside_post = conn->recv_reqs[ref->index] == NUCX_REQ_POSTING;
    conn->recv_reqs[ref->index] = NULL;
    conn->outstanding--;
    ucp_request_free(request);
    if (status == UCS_ERR_CANCELED && !conn->closing) {
        /* Only the parking cancels the receives of a live connection on this path. */
        if (conn->parked) {
            /* Given up: Java may release the buffer. */
            nucx_recv_state(conn)[ref->index] = NUCX_RECV_IDLE;
        } else {
            /*
             * A cancel that completed only after the connection woke (UCX may complete one later, with
             * hardware tag matching): Java kept the buffer of a slot it saw posted, so it is posted again.
             */
            nucx_tag_post_recv(conn, ref->index, conn->recv_seqs[ref->index], conn->recv_bufs[ref->index], NULL);
        }
        return;
    }
    if (conn->closing) {
        return;
    }
    if (!forged(conn, ref->index, status, info->length)) {
        nucx_conn_recv_done(conn, ref->index, status, info->length);
    } else if (inside_post) {
        conn->repost_slot = ref->index; /* nucx_tag_post_recv, which UCX called this from, posts it again */
    } else {
        nucx_tag_post_recv(conn, ref->index, conn->recv_seqs[ref->index], conn->recv_bufs[ref->index], NULL);
    }
}

/* Posts one receive; returns 1 when it must be posted again (what it took was forged). */
static int post_once(nucx_conn *conn, int slot, uint32_t seq, char *buffer, ucp_mem_h memh) {
    ucp_tag_recv_info_t info;
    size_t held_length = 0;
    ucp_tag_message_h held = conn->held_count > 0
                             ? nucx_held_take(conn, nucx_tag_seq(seq, conn->tag_secret), &held_length) : NULL;
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_RECV_INFO,
        .cb.recv = recv_callback,
        .user_data = &conn->recv_refs[slot],
        .recv_info.tag_info = &info,
    };
    if (memh != NULL) {
        param.op_attr_mask |= UCP_OP_ATTR_FIELD_MEMH;
        param.memh = memh;
    }
    conn->recv_bufs[slot] = buffer;
    conn->recv_seqs[slot] = seq;
    nucx_recv_state(conn)[slot] = NUCX_RECV_POSTED;
    conn->recv_reqs[slot] = NUCX_REQ_POSTING;
    conn->repost_slot = -1;
    conn->outstanding++;
    void *req;
    if (held != NULL) {
        conn->state[NUCX_STATE_HELD] = conn->held_count;
        /* The length it was probed with: a receive of a probed message may not fill in its info. */
        param.op_attr_mask &= ~(uint32_t) UCP_OP_ATTR_FIELD_RECV_INFO;
        info.length = held_length;
        req = ucp_tag_msg_recv_nbx(conn->worker->worker, buffer, (size_t) conn->recv_slot_bytes, held, &param);
    } else {
        req = ucp_tag_recv_nbx(conn->worker->worker, buffer, (size_t) conn->recv_slot_bytes,
                               nucx_data_tag(conn->id, conn->tag_secret, seq), NUCX_TAG_DATA_MATCH_MASK, &param);
    }
    if (req == NULL || UCS_PTR_IS_ERR(req)) {
        conn->recv_reqs[slot] = NULL;
        conn->outstanding--;
        if (forged(conn, slot, UCS_PTR_STATUS(req), info.length)) {
            return 1;
        }
        nucx_conn_recv_done(conn, slot, UCS_PTR_STATUS(req), info.length);
    } else if (conn->recv_reqs[slot] == NUCX_REQ_POSTING) {
        conn->recv_reqs[slot] = req;
    }
    return conn->repost_slot == slot;
}

/*
 * Posts the receive of sequence number seq into buffer (recv_slot_bytes long, owned by Java until
 * the connection is freed); memh is the buffer's registration, or NULL. A message held for it while
 * the connection was parked (ucx_park.c) is received at once. A loop, not a recursion, posts it
 * again after forged messages, however many wait.
 */
void nucx_tag_post_recv(nucx_conn *conn, int slot, uint32_t seq, char *buffer, ucp_mem_h memh) {
    while (post_once(conn, slot, seq, buffer, memh)) {
        /* post_once clears repost_slot before each post */
    }
}

/* ---- send ---- */

static void send_callback(void *request, ucs_status_t status, void *user_data) {
    nucx_slot_ref *ref = user_data;
    nucx_conn *conn = ref->conn;
    conn->send_reqs[ref->index] = NULL;
    conn->outstanding--;
    ucp_request_free(request);
    if (!conn->closing) {
        nucx_send_state(conn)[ref->index] = status == UCS_OK ? NUCX_SEND_FREE : (int32_t) status;
        nucx_conn_notify(conn);
    }
}

/*
 * Sends a slot, its header already carrying the credits returned, as one tagged send: `data` and
 * `count` are a contiguous buffer and its length, or an I/O vector and its entry count when `iov` is
 * set. Returns 0 when the send completed at once, 1 while it is in flight, or a negative ucs_status_t.
 */
jint nucx_tag_send(nucx_conn *conn, int slot, void *data, size_t count, int iov, uint32_t seq) {
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
        .cb.send = send_callback,
        .user_data = &conn->send_refs[slot],
    };
    if (iov) {
        param.op_attr_mask |= UCP_OP_ATTR_FIELD_DATATYPE;
        param.datatype = ucp_dt_make_iov();
    } else if (conn->send_memh != NULL) {
        param.op_attr_mask |= UCP_OP_ATTR_FIELD_MEMH;
        param.memh = conn->send_memh;
    }
    uint64_t tag = nucx_data_tag(conn->peer_id, conn->peer_tag_secret, seq);
    nucx_send_state(conn)[slot] = NUCX_SEND_BUSY;
    conn->send_reqs[slot] = NUCX_REQ_POSTING;
    conn->outstanding++;
    conn->sent++;
    void *req = ucp_tag_send_nbx(conn->ep, data, count, tag, &param);
    if (req == NULL || UCS_PTR_IS_ERR(req)) {
        nucx_send_state(conn)[slot] = NUCX_SEND_FREE;
        conn->send_reqs[slot] = NULL;
        conn->outstanding--;
        if (req != NULL) {
            conn->sent--;
        }
        return (jint) UCS_PTR_STATUS(req);
    }
    if (conn->send_reqs[slot] == NUCX_REQ_POSTING) {
        conn->send_reqs[slot] = req;
    }
    return 1;
}

/* ---- close ---- */

static void watch_side_channel(nucx_conn *conn) {
    struct epoll_event ev = {
        .events = EPOLLIN | EPOLLRDHUP,
        .data.u64 = (uint64_t) (uintptr_t) conn | NUCX_EPOLL_CONN_BIT,
    };
    if (epoll_ctl(conn->worker->epoll_fd, EPOLL_CTL_ADD, conn->linger.side_fd, &ev) != 0) {
        nucx_conn_peer_done(conn);
    } else {
        conn->linger.side_watched = 1;
    }
}

/*
 * Lingers on the side channel: the peer's end of it (ucx_linger.c reads it) means it flushed and sends
 * nothing more. force: the peer is gone, so nothing more will arrive.
 */
void nucx_tag_close(nucx_conn *conn, int side_fd, int force) {
    if (force || side_fd < 0) {
        nucx_conn_peer_done(conn);
    } else {
        watch_side_channel(conn);
    }
}
