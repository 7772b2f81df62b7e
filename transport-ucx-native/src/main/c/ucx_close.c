/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The end of a connection's life, and closing it without losing or stranding a message.
 *
 * The lifetime of a connection, Java's part included:
 * 1. java_conn_create (ucx_endpoint.c) allocates the nucx_conn and all it points to, and puts it on
 *    its worker's live list. UcxConnection holds the pointer. The buffers its receives are posted
 *    into, and those its sends read in place, are Java's (ByteBufs), never freed here.
 * 2. Java closes it (UcxConnection.close): it first hands those buffers to UcxWorker.holdUntilFreed,
 *    since UCX may still use them, then calls connClose, after which it never touches the pointer
 *    again. conn_close moves the connection to the worker's closing list, with the side channel's
 *    socket, which the connection owns from then on (Java removed it from its epoll set).
 * 3. It lingers (below) until no UCX request of it can call back any more; nucx_reap_closed, run by
 *    each progress of the worker, then frees it with nucx_conn_free: the one place a closed
 *    connection is freed, which closes the side channel and lists the id (linger.report_free).
 * 4. UcxWorker.releaseFreed (the event loop, after progress) takes the ids with workerTakeFreed and
 *    releases the buffers held for them.
 * When the worker is destroyed or renewed, every connection Java left open is closed here
 * (nucx_close_live, UcxConnection.abandon on the Java side) and the worker progresses until the
 * closing ones are freed. Those that still wait are left allocated with their UCP worker, because
 * UCX 1.13 aborts when a worker is destroyed with requests in flight, and Java keeps their buffers
 * (UcxWorker.releaseHeldAfter): a leak, never a use after free. So is a receive UCX can never complete
 * (its sender died mid-message): the connection lets go of it (nucx_conn_orphan_receives) and its slot
 * ref stays allocated.
 *
 * While it lingers (one on the TCP data path does the same over its socket, see nucx_stream_close):
 * - its endpoint is closed (flushed, unless the peer is known dead), and once that completes the
 *   side channel's write half is shut down: the peer's end-of-stream means "every byte arrived";
 * - its receives stay posted until the peer's side channel ends (the peer flushed and sends
 *   nothing more) or a deadline passes: messages the peer had credit for land in them instead
 *   of piling up in the worker's unexpected queue;
 * - it is freed, with its side channel, once every request has called back, or, a grace period
 *   after the peer is known gone, once only receives that can never complete are left.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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
    if (conn->linger.peer_done) {
        return;
    }
    conn->linger.peer_done = 1;
    nucx_conn_cancel_receives(conn);
    if (conn->linger.side_fd >= 0 && conn->stream == NULL) {
        epoll_ctl(conn->worker->epoll_fd, EPOLL_CTL_DEL, conn->linger.side_fd, NULL);
    }
}

/* The peer's stream ended: it flushed everything before the end (or died), and sends nothing more. */
void nucx_conn_peer_ended(nucx_conn *conn) {
    conn->linger.peer_gone_ns = nucx_now_nanos();
    nucx_conn_peer_done(conn);
}

void nucx_linger_readable(nucx_conn *conn) {
    char discard[256];
    for (;;) {
        ssize_t n = read(conn->linger.side_fd, discard, sizeof(discard));
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
    if (now >= conn->linger.deadline_ns) {
        nucx_conn_peer_done(conn);
        nucx_stream_linger_expired(conn);
    }
    if (!conn->linger.write_shut && conn->linger.close_req == NULL && nucx_stream_drained(conn)) {
        conn->linger.write_shut = 1;
        if (conn->linger.side_fd >= 0) {
            shutdown(conn->linger.side_fd, SHUT_WR);
        }
    }
    if (conn->outstanding > 0 && conn->linger.peer_gone_ns != 0 &&
        now >= conn->linger.peer_gone_ns + NUCX_GONE_GRACE_NANOS) {
        /*
         * What the peer had sent has arrived: a receive still open never completes. Only for a peer
         * known gone: one that is merely slow (stopped, paused) may still send the rest of a message.
         */
        nucx_conn_orphan_receives(conn);
    }
    return conn->linger.peer_done && conn->outstanding == 0;
}

/*
 * Lists the id of a freed connection until Java takes it (workerTakeFreed) and releases the buffers
 * it held for it. If the list cannot grow, those buffers stay unreleased: a leak, never a use after free.
 */
static void record_freed(nucx_worker *w, uint32_t conn_id) {
    if (w->freed_count == w->freed_capacity) {
        int capacity = w->freed_capacity == 0 ? 16 : 2 * w->freed_capacity;
        uint32_t *grown = realloc(w->freed_ids, (size_t) capacity * sizeof(uint32_t));
        if (grown == NULL) {
            return;
        }
        w->freed_ids = grown;
        w->freed_capacity = capacity;
    }
    w->freed_ids[w->freed_count++] = conn_id;
}

/* Frees a closed connection (see the top of this file); its memory goes in nucx_conn_release. */
void nucx_conn_free(nucx_conn *conn) {
    nucx_stream_free(conn);
    /* Closed only now, so that the peer sees end-of-stream after every byte we sent was delivered. */
    if (conn->linger.side_fd >= 0) {
        close(conn->linger.side_fd);
    }
    if (conn->linger.report_free) {
        record_freed(conn->worker, conn->id);
    }
    nucx_conn_release(conn);
}

void nucx_reap_closed(nucx_worker *w) {
    uint64_t now = nucx_now_nanos();
    nucx_conn **link = &w->closing;
    while (*link != NULL) {
        nucx_conn *conn = *link;
        if (reapable(conn, now)) {
            *link = conn->linger.next_closing;
            nucx_conn_free(conn);
        } else {
            link = &conn->linger.next_closing;
        }
    }
}

void nucx_abandon_closing(nucx_worker *w) {
    for (nucx_conn *conn = w->closing; conn != NULL; conn = conn->linger.next_closing) {
        nucx_conn_peer_done(conn);
    }
}

/* False when the closing connections wait for nothing but receives that will never complete. */
int nucx_closing_needs_progress(const nucx_worker *w) {
    for (const nucx_conn *conn = w->closing; conn != NULL; conn = conn->linger.next_closing) {
        if (!conn->linger.peer_done || !nucx_conn_waits_only_for_receives(conn)) {
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
    for (nucx_conn *conn = w->closing; conn != NULL; conn = conn->linger.next_closing) {
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
    for (nucx_conn *conn = w->closing; conn != NULL; conn = conn->linger.next_closing) {
        if (conn->linger.side_fd >= 0) {
            close(conn->linger.side_fd);
            conn->linger.side_fd = -1;
        }
    }
    w->closing = NULL;
}

static void ep_close_callback(void *request, ucs_status_t status, void *user_data) {
    (void) status;
    nucx_conn *conn = user_data;
    conn->linger.close_req = NULL;
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
    conn->linger.close_req = NUCX_REQ_POSTING;
    conn->outstanding++;
    void *req = ucp_ep_close_nbx(conn->ep, &param);
    if (req == NULL || UCS_PTR_IS_ERR(req)) {
        conn->linger.close_req = NULL;
        conn->outstanding--;
    } else if (conn->linger.close_req == NUCX_REQ_POSTING) {
        conn->linger.close_req = req;
    }
    conn->ep = NULL;
}

static void watch_side_channel(nucx_conn *conn) {
    struct epoll_event ev = {
        .events = EPOLLIN | EPOLLRDHUP,
        .data.u64 = (uint64_t) (uintptr_t) conn | NUCX_EPOLL_CONN_BIT,
    };
    if (epoll_ctl(conn->worker->epoll_fd, EPOLL_CTL_ADD, conn->linger.side_fd, &ev) != 0) {
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
    conn->linger.report_free = report_free;
    nucx_conn_unlink_live(conn);
    conn->closing = 1;
    conn->linger.side_fd = side_fd;
    conn->linger.deadline_ns = nucx_now_nanos() + NUCX_LINGER_NANOS;
    if (force) {
        conn->linger.peer_gone_ns = nucx_now_nanos();
    }
    if (conn->stream != NULL) {
        nucx_stream_close(conn, side_fd, force);
    } else if (force || side_fd < 0) {
        nucx_conn_peer_done(conn);
    } else {
        watch_side_channel(conn);
    }
    close_endpoint(conn, force);
    conn->linger.next_closing = w->closing;
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

/* Moves up to out.length ids of freed connections to out; returns how many. */
static jint java_worker_take_freed(JNIEnv *env, jclass cls, jlong worker_ptr, jintArray out) {
    (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    jsize n = (*env)->GetArrayLength(env, out);
    if (n > w->freed_count) {
        n = w->freed_count;
    }
    if (n == 0) {
        return 0;
    }
    (*env)->SetIntArrayRegion(env, out, 0, n, (const jint *) w->freed_ids);
    w->freed_count -= n;
    memmove(w->freed_ids, w->freed_ids + n, (size_t) w->freed_count * sizeof(uint32_t));
    return n;
}

static const JNINativeMethod methods[] = {
    {"connClose", "(JIZZ)V", (void *) java_conn_close},
    {"workerTakeFreed", "(J[I)I", (void *) java_worker_take_freed},
};

int nucx_register_close(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
