/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Closing a connection without losing or stranding a message.
 *
 * After Java closes a channel, the native connection lingers on its worker's closing list (one on the
 * TCP data path does the same over its socket, see nucx_stream_close):
 * - its endpoint is closed (flushed, unless the peer is known dead), and once that completes the
 *   side channel's write half is shut down: the peer's end-of-stream means "every byte arrived";
 * - its receives stay posted until the peer's side channel ends (the peer flushed and sends
 *   nothing more) or a deadline passes: messages the peer had credit for land in them instead
 *   of piling up in the worker's unexpected queue;
 * - it is freed, with its side channel, once every request has called back, or, a grace period
 *   after the peer is known gone, once only receives that can never complete are left
 *   (nucx_conn_orphan_receives).
 */
#include <errno.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ucx_native.h"

#define NUCX_LINGER_NANOS (10ull * 1000000000ull)
/*
 * After the peer is known gone, how long its last messages (already in our receive queue, or
 * dropped with it) get to arrive before a receive that has not finished counts as never finishing.
 */
#define NUCX_GONE_GRACE_NANOS (2ull * 1000000000ull)

/*
 * The peer will send nothing more (or we stop waiting for it): release the receives. A side
 * channel on the TCP data path is not in the loop's set but in the stream set, which ucx_stream.c keeps.
 */
void nucx_conn_peer_done(nucx_conn *conn) {
    if (conn->peer_done) {
        return;
    }
    conn->peer_done = 1;
    nucx_conn_cancel_receives(conn);
    if (conn->side_fd >= 0 && conn->stream == NULL) {
        epoll_ctl(conn->worker->epoll_fd, EPOLL_CTL_DEL, conn->side_fd, NULL);
    }
}

/* The peer's stream ended: it flushed everything before the end (or died), and sends nothing more. */
void nucx_conn_peer_ended(nucx_conn *conn) {
    conn->peer_gone_ns = nucx_now_nanos();
    nucx_conn_peer_done(conn);
}

void nucx_linger_readable(nucx_conn *conn) {
    char discard[256];
    for (;;) {
        ssize_t n = read(conn->side_fd, discard, sizeof(discard));
        if (n > 0 || (n < 0 && errno == EINTR)) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        }
        break;
    }
    nucx_conn_peer_ended(conn);
}

static int reapable(nucx_conn *conn, uint64_t now) {
    if (now >= conn->linger_deadline_ns) {
        nucx_conn_peer_done(conn);
        nucx_stream_linger_expired(conn);
    }
    if (!conn->write_shut && conn->close_req == NULL && nucx_stream_drained(conn)) {
        conn->write_shut = 1;
        if (conn->side_fd >= 0) {
            shutdown(conn->side_fd, SHUT_WR);
        }
    }
    if (conn->outstanding > 0 && conn->peer_gone_ns != 0 && now >= conn->peer_gone_ns + NUCX_GONE_GRACE_NANOS) {
        /*
         * What the peer had sent has arrived: a receive still open never completes. Only for a peer
         * known gone: one that is merely slow (stopped, paused) may still send the rest of a message.
         */
        nucx_conn_orphan_receives(conn);
    }
    return conn->peer_done && conn->outstanding == 0;
}

void nucx_reap_closed(nucx_worker *w) {
    uint64_t now = nucx_now_nanos();
    nucx_conn **link = &w->closing;
    while (*link != NULL) {
        nucx_conn *conn = *link;
        if (reapable(conn, now)) {
            *link = conn->next_closing;
            nucx_conn_free(conn);
        } else {
            link = &conn->next_closing;
        }
    }
}

void nucx_abandon_closing(nucx_worker *w) {
    for (nucx_conn *conn = w->closing; conn != NULL; conn = conn->next_closing) {
        nucx_conn_peer_done(conn);
    }
}

/* False when the closing connections wait for nothing but receives that will never complete. */
int nucx_closing_needs_progress(const nucx_worker *w) {
    for (const nucx_conn *conn = w->closing; conn != NULL; conn = conn->next_closing) {
        if (!conn->peer_done || !nucx_conn_waits_only_for_receives(conn)) {
            return 1;
        }
    }
    return 0;
}

/*
 * For a worker about to be destroyed: lets go of receives that can no longer complete, and frees
 * their connections.
 */
void nucx_let_go_of_stuck_receives(nucx_worker *w) {
    for (nucx_conn *conn = w->closing; conn != NULL; conn = conn->next_closing) {
        nucx_conn_orphan_receives(conn);
    }
    nucx_reap_closed(w);
}

/*
 * Leaves the connections still closing allocated with their UCP worker, which nothing will
 * progress any more (their requests never call back): only their side channels are closed, so
 * that their peers see the end.
 */
void nucx_leave_closing(nucx_worker *w) {
    for (nucx_conn *conn = w->closing; conn != NULL; conn = conn->next_closing) {
        if (conn->side_fd >= 0) {
            close(conn->side_fd);
            conn->side_fd = -1;
        }
    }
    w->closing = NULL;
}

static void ep_close_callback(void *request, ucs_status_t status, void *user_data) {
    (void) status;
    nucx_conn *conn = user_data;
    conn->close_req = NULL;
    conn->outstanding--;
    ucp_request_free(request);
}

static void close_endpoint(nucx_conn *conn, int force) {
    if (conn->ep == NULL) {
        return;
    }
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS,
        .cb.send = ep_close_callback,
        .user_data = conn,
        .flags = force ? UCP_EP_CLOSE_FLAG_FORCE : 0,
    };
    conn->close_req = NUCX_REQ_POSTING;
    conn->outstanding++;
    void *req = ucp_ep_close_nbx(conn->ep, &param);
    if (req == NULL || UCS_PTR_IS_ERR(req)) {
        conn->close_req = NULL;
        conn->outstanding--;
    } else if (conn->close_req == NUCX_REQ_POSTING) {
        conn->close_req = req;
    }
    conn->ep = NULL;
}

static void watch_side_channel(nucx_conn *conn) {
    struct epoll_event ev = {
        .events = EPOLLIN | EPOLLRDHUP,
        .data.u64 = (uint64_t) (uintptr_t) conn | NUCX_EPOLL_CONN_BIT,
    };
    if (epoll_ctl(conn->worker->epoll_fd, EPOLL_CTL_ADD, conn->side_fd, &ev) != 0) {
        nucx_conn_peer_done(conn);
    }
}

/*
 * Hands the connection over to its worker (see the top of this file). Java must have removed
 * side_fd from its own epoll registration first; from here on the connection owns side_fd.
 * force: the peer is gone, so nothing is flushed and nothing more will arrive.
 */
static void conn_close(nucx_conn *conn, int side_fd, int force, int report_free) {
    nucx_worker *w = conn->worker;
    conn->report_free = report_free;
    nucx_conn_unlink_live(conn);
    conn->closing = 1;
    conn->side_fd = side_fd;
    conn->linger_deadline_ns = nucx_now_nanos() + NUCX_LINGER_NANOS;
    if (force) {
        conn->peer_gone_ns = nucx_now_nanos();
    }
    if (conn->stream != NULL) {
        nucx_stream_close(conn, side_fd, force);
    } else if (force || side_fd < 0) {
        nucx_conn_peer_done(conn);
    } else {
        watch_side_channel(conn);
    }
    close_endpoint(conn, force);
    conn->next_closing = w->closing;
    w->closing = conn;
}

/* report_free: Java keeps buffers of sends in flight until workerTakeFreed lists this connection. */
static void java_conn_close(JNIEnv *env, jclass cls, jlong conn_ptr, jint side_fd, jboolean force,
                            jboolean report_free) {
    (void) env; (void) cls;
    conn_close((nucx_conn *) (intptr_t) conn_ptr, side_fd, force, report_free);
}

/* Closes (without flushing) every connection Java left open; returns how many there were. */
int nucx_close_live(nucx_worker *w) {
    int count = 0;
    while (w->live != NULL) {
        conn_close(w->live, -1, 1, 0);
        count++;
    }
    return count;
}

static const JNINativeMethod methods[] = {
    {"connClose", "(JIZZ)V", (void *) java_conn_close},
};

int nucx_register_close(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
