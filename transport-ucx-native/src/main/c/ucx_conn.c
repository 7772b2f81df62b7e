/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The connection core: a connection's memory (its receive slots, one per sequence number in the
 * window, posted while it is not parked (ucx_park.c); its send staging slots; and the state block Java
 * reads after each progress call), its UCP endpoint, its credit messages, its parking, what it
 * reports to Java, and its close. Its data messages travel as tagged messages (ucx_tag_path.c),
 * which this file calls; what the completions of both report to Java is ucx_conn_events.c's. (A
 * connection whose hellos chose TCP has no native connection: Java drives its socket as plain TCP,
 * ucx_plain.c.)
 *
 * The lifetime of a connection, Java's part included:
 * 1. java_conn_create allocates the nucx_conn and all it points to, and puts it on its worker's live
 *    list. UcxConnection holds the pointer. The buffers its receives are posted into, and those its
 *    sends read in place, are Java's (ByteBufs), never freed here.
 * 2. Java closes it (UcxConnection.close): it first hands those buffers to UcxWorker.holdUntilFreed,
 *    since UCX may still use them, then calls connClose, after which it never touches the pointer
 *    again. nucx_conn_close moves the connection to the worker's closing list, with the side channel's
 *    socket, which the connection owns from then on (Java removed it from its epoll set).
 * 3. It lingers (below) until no UCX request of it can call back any more; nucx_reap_closed
 *    (ucx_linger.c), run by each progress of the worker, then frees it with nucx_conn_free: the one
 *    place a closed connection is freed, which closes the side channel and lists the id
 *    (linger.report_free); its memory goes in conn_release.
 * 4. UcxWorker.releaseFreed (the event loop, after progress) takes the ids with workerTakeFreed and
 *    releases the buffers held for them.
 * When the worker is destroyed or renewed, every connection Java left open is closed (nucx_close_live
 * in ucx_linger.c, UcxConnection.abandon on the Java side) and the worker progresses until the
 * closing ones are freed. Those that still wait are left allocated with their UCP worker, because
 * UCX 1.13 aborts when a worker is destroyed with requests in flight, and Java keeps their buffers
 * (UcxWorker.releaseHeldAfter): a leak, never a use after free. So is a receive UCX can never complete
 * (its sender died mid-message): the connection lets go of it (nucx_conn_orphan_receives) and its slot
 * ref stays allocated.
 *
 * While it lingers:
 * - it leaves its endpoint, which it shares with the worker's other connections to the peer's worker
 *   (ucx_endpoint.c): the endpoint is flushed (closed, with flushing, when it was the last one on it;
 *   neither when the peer is known dead), and once that completes the side channel's write half is
 *   shut down: the peer's end-of-stream means "every byte arrived";
 * - its receives stay posted until the peer's side channel ends (the peer flushed and sends
 *   nothing more) or a deadline passes: messages the peer had credit for land in them instead
 *   of piling up in the worker's unexpected queue;
 * - it is freed, with its side channel, once every request has called back, or, a grace period
 *   after the peer is known gone, once only receives that can never complete are left.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ucx_conn.h"
#include "ucx_conn_events.h"
#include "ucx_context.h"
#include "ucx_endpoint.h"
#include "ucx_errors.h"
#include "ucx_ids.h"
#include "ucx_memory.h"
#include "ucx_park.h"
#include "ucx_tag_path.h"
#include "ucx_worker.h"

/* Send slots start on cache lines. */
#define NUCX_SLOT_ALIGNMENT 64
#define NUCX_LINGER_NANOS (10ull * 1000000000ull)
/*
 * After the peer is known gone, how long its last messages (already in our receive queue, or
 * dropped with it) get to arrive before a receive that has not finished counts as never finishing.
 */
#define NUCX_GONE_GRACE_NANOS (2ull * 1000000000ull)

/* Connections allocated and not freed yet, over all workers: lets tests see native leaks. */
static int64_t allocated_connections;

static void write_header(void *message, uint32_t credits, uint32_t key) {
    memcpy(message, &credits, sizeof(credits));
    memcpy((char *) message + NUCX_HEADER_KEY_OFFSET, &key, sizeof(key));
}

/* ---- credit messages ---- */

static void post_ctrl_recv(nucx_conn *conn);

/* A control message arrived whole: its credits count if it carries our key, else it is a stray. */
static void take_credit_message(nucx_conn *conn) {
    if (!nucx_conn_message_has_key(conn, conn->ctrl_recv_buf, NUCX_HEADER_BYTES)) {
        nucx_count_strays(1);
        return;
    }
    nucx_conn_take_credits(conn, conn->ctrl_recv_buf);
    nucx_conn_notify(conn);
}

static void ctrl_recv_callback(void *request, ucs_status_t status, const ucp_tag_recv_info_t *info,
                               void *user_data) {
    nucx_conn *conn = user_data;
    int called_inside_post = conn->ctrl_recv_req == NUCX_REQ_POSTING;
    conn->ctrl_recv_req = NULL;
    conn->outstanding--;
    ucp_request_free(request);
    if (conn->closing || status == UCS_ERR_CANCELED) {
        return;
    }
    if (status != UCS_OK || info->length != NUCX_HEADER_BYTES) {
        nucx_conn_fail(conn, status != UCS_OK ? status : UCS_ERR_INVALID_PARAM);
        return;
    }
    take_credit_message(conn);
    if (!called_inside_post) {
        post_ctrl_recv(conn);
    }
}

/*
 * Control messages carry only credits; several may already wait as unexpected messages. Posted from
 * creation on, until the peer is done.
 */
static void post_ctrl_recv(nucx_conn *conn) {
    while (!conn->closing && conn->state[NUCX_STATE_ERROR] == 0) {
        ucp_tag_recv_info_t info;
        ucp_request_param_t param = {
            .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                            UCP_OP_ATTR_FIELD_RECV_INFO,
            .cb.recv = ctrl_recv_callback,
            .user_data = conn,
            .recv_info.tag_info = &info,
        };
        conn->ctrl_recv_req = NUCX_REQ_POSTING;
        conn->outstanding++;
        void *req = ucp_tag_recv_nbx(conn->worker->worker, conn->ctrl_recv_buf, sizeof(conn->ctrl_recv_buf),
                                     nucx_ctrl_tag(conn->id, conn->tag_secret), NUCX_TAG_CTRL_MATCH_MASK, &param);
        if (req == NULL) {
            conn->ctrl_recv_req = NULL;
            conn->outstanding--;
            if (info.length != NUCX_HEADER_BYTES) {
                nucx_conn_fail(conn, UCS_ERR_INVALID_PARAM);
                return;
            }
            take_credit_message(conn);
        } else if (UCS_PTR_IS_ERR(req)) {
            conn->ctrl_recv_req = NULL;
            conn->outstanding--;
            nucx_conn_fail(conn, UCS_PTR_STATUS(req));
        } else if (conn->ctrl_recv_req == NUCX_REQ_POSTING) {
            conn->ctrl_recv_req = req;
            return;
        }
        /* Completed at once (the callback may have run inside the call): post the next one. */
    }
}

static void ctrl_send_callback(void *request, ucs_status_t status, void *user_data) {
    nucx_conn *conn = user_data;
    conn->ctrl_send_pending = 0;
    conn->outstanding--;
    ucp_request_free(request);
    if (conn->closing) {
        return;
    }
    if (status != UCS_OK && status != UCS_ERR_CANCELED) {
        nucx_conn_fail(conn, status);
    } else {
        /* Java may hold credits it could not send while this one was pending. */
        nucx_conn_notify(conn);
    }
}

/* Returns 0 (sent), 1 (in flight), NUCX_CREDITS_BUSY (the previous one is in flight) or a ucs_status_t. */
static jint java_conn_send_credits(JNIEnv *env, jclass cls, jlong conn_ptr, jint credits) {
    (void) env; (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
        .cb.send = ctrl_send_callback,
        .user_data = conn,
    };
    if (conn->ctrl_send_pending) {
        return NUCX_CREDITS_BUSY;
    }
    write_header(conn->ctrl_send_buf, (uint32_t) credits, conn->peer_message_key);
    conn->ctrl_send_pending = 1;
    conn->outstanding++;
    uint64_t tag = nucx_ctrl_tag(conn->peer_id, conn->peer_tag_secret);
    void *req = ucp_tag_send_nbx(conn->ep, conn->ctrl_send_buf, NUCX_HEADER_BYTES, tag, &param);
    if (req == NULL || UCS_PTR_IS_ERR(req)) {
        conn->ctrl_send_pending = 0;
        conn->outstanding--;
        return (jint) UCS_PTR_STATUS(req);
    }
    return 1;
}

/* ---- data, on the tag path ---- */

/* Sends a slot as a tagged message, its header carrying the credits returned and the peer's key. */
static jint conn_send(nucx_conn *conn, int slot, void *data, size_t count, int iov, uint32_t seq, uint32_t credits) {
    write_header(nucx_send_slot(conn, slot), credits, conn->peer_message_key);
    return nucx_tag_send(conn, slot, data, count, iov, seq);
}

/* Sends the payload Java gathered into a send slot after the header space, the credits being returned in the header. */
static jint java_conn_send(JNIEnv *env, jclass cls, jlong conn_ptr, jint slot, jint length, jint seq, jint credits) {
    (void) env; (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    return conn_send(conn, slot, nucx_send_slot(conn, slot), (size_t) length + NUCX_HEADER_BYTES, 0, (uint32_t) seq,
                     (uint32_t) credits);
}

/*
 * Sends the slot's I/O vector: entry 0 is set here to the slot's header, entries 1..count-1 were
 * written by Java (pieces copied into the slot after the header, and buffers sent from their own
 * memory, which Java keeps alive until the slot's state leaves NUCX_SEND_BUSY).
 */
static jint java_conn_send_iov(JNIEnv *env, jclass cls, jlong conn_ptr, jint slot, jint count, jint seq,
                               jint credits) {
    (void) env; (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    if (count < 2 || count > NUCX_MAX_IOV) {
        return (jint) UCS_ERR_INVALID_PARAM;
    }
    ucp_dt_iov_t *iov = nucx_send_iov(conn, slot);
    iov[0].buffer = nucx_send_slot(conn, slot);
    iov[0].length = NUCX_HEADER_BYTES;
    return conn_send(conn, slot, iov, (size_t) count, 1, (uint32_t) seq, (uint32_t) credits);
}

/* Posts the receive of a slot: at creation, and again once Java has consumed the slot's message. */
static void java_conn_post_recv(JNIEnv *env, jclass cls, jlong conn_ptr, jint slot, jint seq, jlong address,
                                jlong memh) {
    (void) env; (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    nucx_tag_post_recv(conn, slot, (uint32_t) seq, (char *) (intptr_t) address, (ucp_mem_h) (intptr_t) memh);
}

/* ---- parking (ucx_park.c tells why) ---- */

/*
 * Parks the connection: its data receives are cancelled (Java then releases the buffers of the slots
 * whose state went back to NUCX_RECV_IDLE) and messages for it are held until Java posts receives
 * again. recv_seq: the next sequence number Java reads. Returns 1 when it is parked, 0 when it is
 * closing.
 */
static jint java_conn_park(JNIEnv *env, jclass cls, jlong conn_ptr, jint recv_seq) {
    (void) env; (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    if (conn->parked) {
        return 1;
    }
    if (conn->closing) {
        return 0;
    }
    conn->parked = 1;
    conn->park_base = nucx_tag_seq((uint32_t) recv_seq, conn->tag_secret);
    nucx_conn_cancel_data_receives(conn);
    return 1;
}

/* Ends the parking: Java posted the receives, which took the held messages of their sequence numbers. */
static void conn_unpark(nucx_conn *conn) {
    if (!conn->parked) {
        return;
    }
    conn->parked = 0;
    /* None of the receives wanted them: outside what the window holds now, or copies of a sequence number. */
    nucx_count_strays((uint64_t) conn->held_count);
    nucx_held_discard(conn);
    conn->state[NUCX_STATE_HELD] = 0;
}

static void java_conn_unpark(JNIEnv *env, jclass cls, jlong conn_ptr) {
    (void) env; (void) cls;
    conn_unpark((nucx_conn *) (intptr_t) conn_ptr);
}

/*
 * A message the worker's sweep found in UCX's unexpected queue: held, and Java told, when it is a data
 * message for a parked connection with that connection's key and a sequence number in its window;
 * otherwise the sweep discards it as a stray.
 */
int nucx_conn_take_unexpected(nucx_worker *w, ucp_tag_message_h message, const ucp_tag_recv_info_t *info) {
    uint64_t tag = info->sender_tag;
    if ((tag & NUCX_TAG_CTRL_BIT) != 0) {
        return 0;
    }
    nucx_conn *conn = nucx_ids_find(w, (uint32_t) (tag >> NUCX_TAG_ID_SHIFT));
    if (conn == NULL || !conn->parked ||
        (uint32_t) (tag & NUCX_TAG_KEY_MASK) != nucx_secret_key(conn->tag_secret)) {
        return 0;
    }
    uint32_t seq = (uint32_t) (tag >> NUCX_TAG_SEQ_SHIFT) & NUCX_TAG_SEQ_MASK;
    if (((seq - conn->park_base) & NUCX_TAG_SEQ_MASK) >= (uint32_t) conn->recv_slots ||
        nucx_held_put(conn, message, seq, info->length) != 0) {
        return 0;
    }
    conn->state[NUCX_STATE_HELD] = conn->held_count;
    nucx_conn_notify(conn);
    return 1;
}

/* ---- lifetime ---- */

/*
 * The send slots, each after its I/O vector, in a mapping of the connection's own: the pages of
 * slots no send used stay out of the resident set. From the allocator they shared pages with its
 * headers and with other connections' small blocks, which every connection then touched.
 */
static int map_send_area(nucx_conn *conn) {
    size_t stride = NUCX_SLOT_IOV_BYTES + (size_t) conn->send_slot_bytes;
    conn->send_stride = (stride + NUCX_SLOT_ALIGNMENT - 1) & ~(size_t) (NUCX_SLOT_ALIGNMENT - 1);
    size_t page = (size_t) sysconf(_SC_PAGESIZE);
    size_t length = ((size_t) conn->send_slots * conn->send_stride + page - 1) / page * page;
    void *area = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area == MAP_FAILED) {
        return errno;
    }
    conn->send_area = area;
    conn->send_area_bytes = length;
    return 0;
}

static void unlink_live(nucx_conn *conn) {
    if (conn->prev_live != NULL) {
        conn->prev_live->next_live = conn->next_live;
    } else {
        conn->worker->live = conn->next_live;
    }
    if (conn->next_live != NULL) {
        conn->next_live->prev_live = conn->prev_live;
    }
    conn->prev_live = conn->next_live = NULL;
}

/*
 * Frees what java_conn_create allocated, the connection itself last: the one place that memory is
 * freed, once nothing can use it any more (nucx_conn_free, or a failed creation). Slot refs of
 * receives the connection let go of (nucx_conn_orphan_receives) stay allocated, marked, for callbacks
 * that are not expected to come.
 */
static void conn_release(nucx_conn *conn) {
    __atomic_sub_fetch(&allocated_connections, 1, __ATOMIC_RELAXED);
    if (conn->send_memh != NULL) {
        ucp_mem_unmap(nucx_context(), conn->send_memh);
    }
    free((void *) conn->state);
    free(conn->recv_bufs);
    if (conn->send_area != NULL) {
        munmap(conn->send_area, conn->send_area_bytes);
    }
    free(conn->recv_reqs);
    free(conn->send_reqs);
    free(conn->held);
    free(conn->recv_seqs);
    if (conn->linger.receives_orphaned) {
        for (int i = 0; i < conn->recv_slots; i++) {
            conn->recv_refs[i].conn = NULL;
        }
    } else {
        free(conn->recv_refs);
    }
    free(conn->send_refs);
    free(conn);
}

/* True when the connection waits for requests and all of them are data receives. */
int nucx_conn_waits_only_for_receives(const nucx_conn *conn) {
    int receives = 0;
    for (int i = 0; i < conn->recv_slots; i++) {
        receives += conn->recv_reqs[i] != NULL;
    }
    return receives > 0 && receives == conn->outstanding;
}

/*
 * A receive that took the first fragments of a message whose sender then died never completes,
 * and UCX cannot cancel a receive once it matched. Called when nothing more can arrive for the
 * connection: if every request it still waits for is such a receive, it stops waiting. The
 * requests stay with UCX, and their slot refs stay allocated (left, marked orphaned, by
 * nucx_conn_release) for a callback that is not expected to come. Returns whether it let go.
 */
int nucx_conn_orphan_receives(nucx_conn *conn) {
    if (!nucx_conn_waits_only_for_receives(conn)) {
        return 0;
    }
    conn->linger.receives_orphaned = 1;
    conn->outstanding = 0;
    return 1;
}

/*
 * Registered once, so that sends from it pass their memory handle instead of UCX looking the
 * area up in its registration cache (zero-copy protocols need it with RDMA devices). Without a
 * registration the sends still work.
 */
static void register_send_area(nucx_conn *conn) {
    if (nucx_mem_register(conn->send_area, conn->send_area_bytes, &conn->send_memh) != UCS_OK) {
        conn->send_memh = NULL;
    }
}

static int conn_alloc(nucx_conn *conn) {
    size_t state_words = NUCX_STATE_HEADER_WORDS + (size_t) conn->recv_slots + (size_t) conn->send_slots;
    conn->state = calloc(state_words, sizeof(int32_t));
    conn->recv_bufs = calloc((size_t) conn->recv_slots, sizeof(char *));
    conn->recv_reqs = calloc((size_t) conn->recv_slots, sizeof(void *));
    conn->send_reqs = calloc((size_t) conn->send_slots, sizeof(void *));
    conn->recv_refs = calloc((size_t) conn->recv_slots, sizeof(nucx_slot_ref));
    conn->send_refs = calloc((size_t) conn->send_slots, sizeof(nucx_slot_ref));
    conn->held = malloc((size_t) conn->recv_slots * NUCX_HELD_PER_SLOT * sizeof(nucx_held));
    conn->recv_seqs = malloc((size_t) conn->recv_slots * sizeof(uint32_t));
    if (conn->state == NULL || conn->recv_bufs == NULL || conn->recv_reqs == NULL ||
        conn->send_reqs == NULL || conn->recv_refs == NULL || conn->send_refs == NULL || conn->held == NULL ||
        conn->recv_seqs == NULL) {
        return -1;
    }
    for (int i = 0; i < conn->recv_slots; i++) {
        conn->recv_refs[i] = (nucx_slot_ref) {conn, i};
        nucx_recv_state(conn)[i] = NUCX_RECV_IDLE;
    }
    for (int i = 0; i < conn->send_slots; i++) {
        conn->send_refs[i] = (nucx_slot_ref) {conn, i};
    }
    return 0;
}

/*
 * Fills `bytes` from the kernel's random source: 0, or the errno. There is no fallback: ids, tag
 * secrets and message keys that could be predicted would let anyone aim messages at a connection.
 */
static int fill_random(void *bytes, size_t length) {
    unsigned char *at = bytes;
    while (length > 0) {
        ssize_t n = getrandom(at, length, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return n < 0 ? errno : EIO;
        }
        at += n;
        length -= (size_t) n;
    }
    return 0;
}

/*
 * Receives match on the tag alone, and the tag starts with the receiving connection's id: ids
 * are random so that a peer cannot aim messages at another peer's connection by guessing a
 * neighbour of its own id. Unique among the worker's connections, including closing ones.
 * The tag secret keeps only the bits the tag layout uses. 0, or getrandom's errno.
 */
static int new_identity(const nucx_worker *w, nucx_conn *conn) {
    uint64_t secrets[2];
    int failed = fill_random(secrets, sizeof(secrets));
    uint32_t id = 0;
    while (failed == 0 && (id == 0 || nucx_ids_find(w, id) != NULL)) {
        failed = fill_random(&id, sizeof(id));
    }
    conn->id = id;
    conn->tag_secret = secrets[0] & ((1ull << 48) - 1);
    conn->message_key = (uint32_t) secrets[1];
    return failed;
}

/*
 * Creates a connection; Java then posts its receives (connPostRecv) into buffers of its own
 * before the handshake advertises the window. out: see enum nucx_created_word.
 */
static void java_conn_create(JNIEnv *env, jclass cls, jlong worker_ptr, jint index, jint recv_slots,
                             jint recv_slot_bytes, jint send_slots, jint send_slot_bytes, jlongArray out) {
    (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    if (index < 0 || index >= w->max_connections) {
        nucx_throw_io(env, "connection", "index out of range");
        return;
    }
    nucx_conn *conn = calloc(1, sizeof(*conn));
    if (conn == NULL) {
        nucx_throw_io(env, "connection", "out of memory");
        return;
    }
    __atomic_add_fetch(&allocated_connections, 1, __ATOMIC_RELAXED);
    conn->worker = w;
    conn->linger.side_fd = -1;
    conn->index = index;
    conn->recv_slots = recv_slots;
    conn->recv_slot_bytes = recv_slot_bytes;
    conn->send_slots = send_slots;
    conn->send_slot_bytes = send_slot_bytes;
    if (conn_alloc(conn) != 0) {
        conn_release(conn);
        nucx_throw_io(env, "connection buffers", "out of memory");
        return;
    }
    int mapped = map_send_area(conn);
    if (mapped != 0) {
        conn_release(conn);
        /* Each connection maps its send slots: a process near vm.max_map_count runs out of mappings first. */
        nucx_throw_errno(env, "mmap of the connection's send slots (if the process is at the kernel's limit of "
                         "mappings, raise it: sysctl -w vm.max_map_count=262144)", mapped);
        return;
    }
    register_send_area(conn);
    int no_random = new_identity(w, conn);
    if (no_random != 0) {
        conn_release(conn);
        nucx_throw_errno(env, "getrandom: the kernel gave no random bytes for the connection's id and keys, and "
                         "netty-ucx opens no connection with predictable ones", no_random);
        return;
    }
    if (nucx_ids_add(w, conn) != 0) {
        conn_release(conn);
        nucx_throw_io(env, "connection table", "out of memory");
        return;
    }
    conn->next_live = w->live;
    if (w->live != NULL) {
        w->live->prev_live = conn;
    }
    w->live = conn;
    post_ctrl_recv(conn);
    jlong values[NUCX_CREATED_WORDS] = {
        [NUCX_CREATED_CONN] = (jlong) (intptr_t) conn,
        [NUCX_CREATED_STATE] = (jlong) (intptr_t) conn->state,
        [NUCX_CREATED_SEND_AREA] = (jlong) (intptr_t) conn->send_area,
        [NUCX_CREATED_ID] = (jlong) conn->id,
        [NUCX_CREATED_SEND_STRIDE] = (jlong) conn->send_stride,
        [NUCX_CREATED_TAG_SECRET] = (jlong) conn->tag_secret,
        [NUCX_CREATED_MESSAGE_KEY] = (jlong) conn->message_key,
    };
    (*env)->SetLongArrayRegion(env, out, 0, NUCX_CREATED_WORDS, values);
}

/* ---- the endpoint (shared with the other connections to the peer's worker, ucx_endpoint.c) ---- */

/* The peer's worker failed or vanished: every connection on the endpoint fails, and new ones get another. */
static void ep_error_callback(void *arg, ucp_ep_h ep, ucs_status_t status) {
    (void) ep;
    nucx_endpoint *e = arg;
    if (e->failed != UCS_OK) {
        return;
    }
    e->failed = status;
    nucx_endpoint_unlist(e->worker, e);
    for (nucx_conn *conn = e->first_user; conn != NULL; conn = conn->next_on_ep) {
        nucx_conn_fail(conn, status);
    }
}

static void wired_up_callback(void *request, ucs_status_t status, void *user_data) {
    nucx_endpoint *e = user_data;
    e->wiring = 0;
    ucp_request_free(request);
    if (status == UCS_OK) {
        e->wired_up = 1;
        for (nucx_conn *conn = e->first_user; conn != NULL; conn = conn->next_on_ep) {
            conn->state[NUCX_STATE_WIRED_UP] = 1;
        }
    }
    nucx_endpoint_free_if_done(e);
}

/*
 * A new endpoint may still be wiring up, and UCX 1.13 replays sends queued meanwhile with the
 * protocol chosen before the endpoint's lanes were reconfigured: an I/O-vector send replayed that
 * way can stall forever (openucx/ucx#6872). A flush completes only once the endpoint is wired up,
 * so Java sends contiguous copies until then, on every connection of the endpoint.
 */
static void flush_until_wired_up(nucx_endpoint *e) {
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
        .cb.send = wired_up_callback,
        .user_data = e,
    };
    e->wiring = 1;
    void *req = ucp_ep_flush_nbx(e->ep, &param);
    if (!UCS_PTR_IS_PTR(req)) {
        e->wiring = 0;
        e->wired_up = req == NULL;
    }
}

static void join_endpoint(nucx_conn *conn, nucx_endpoint *e) {
    conn->endpoint = e;
    conn->ep = e->ep;
    conn->next_on_ep = e->first_user;
    conn->prev_on_ep = NULL;
    if (e->first_user != NULL) {
        e->first_user->prev_on_ep = conn;
    }
    e->first_user = conn;
    e->users++;
    if (e->wired_up) {
        conn->state[NUCX_STATE_WIRED_UP] = 1;
    }
}

static void leave_endpoint(nucx_conn *conn) {
    nucx_endpoint *e = conn->endpoint;
    if (conn->prev_on_ep != NULL) {
        conn->prev_on_ep->next_on_ep = conn->next_on_ep;
    } else {
        e->first_user = conn->next_on_ep;
    }
    if (conn->next_on_ep != NULL) {
        conn->next_on_ep->prev_on_ep = conn->prev_on_ep;
    }
    conn->next_on_ep = conn->prev_on_ep = NULL;
    conn->endpoint = NULL;
    conn->ep = NULL;
    e->users--;
}

/* Connections of this process whose peer's address reached UCX (each got an endpoint, new or shared): tests count them. */
static uint64_t endpoints_created;
/* UCP endpoints of connections open now, over all workers. */
static int64_t endpoints_open;

static void java_conn_connect(JNIEnv *env, jclass cls, jlong conn_ptr, jbyteArray peer_address, jbyteArray peer_owner,
                              jint peer_id, jlong peer_tag_secret, jint peer_message_key,
                              jboolean peer_error_handling) {
    (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    if ((*env)->GetArrayLength(env, peer_owner) != NUCX_OWNER_BYTES) {
        nucx_throw_io(env, "ucp_ep_create", "the peer's owner key is not 32 bytes");
        return;
    }
    unsigned char owner[NUCX_OWNER_BYTES];
    (*env)->GetByteArrayRegion(env, peer_owner, 0, NUCX_OWNER_BYTES, (jbyte *) owner);
    jsize length = (*env)->GetArrayLength(env, peer_address);
    jbyte *address = malloc((size_t) length);
    if (address == NULL) {
        nucx_throw_io(env, "ucp_ep_create", "out of memory");
        return;
    }
    (*env)->GetByteArrayRegion(env, peer_address, 0, length, address);
    int err_mode = peer_error_handling ? UCP_ERR_HANDLING_MODE_PEER : UCP_ERR_HANDLING_MODE_NONE;
    __atomic_fetch_add(&endpoints_created, 1, __ATOMIC_RELAXED);
    nucx_endpoint *e = nucx_endpoint_find(conn->worker, address, (size_t) length, owner, err_mode);
    if (e == NULL) {
        ucs_status_t status;
        e = nucx_endpoint_open(conn->worker, address, (size_t) length, owner, err_mode, ep_error_callback, &status);
        if (e == NULL) {
            free(address);
            nucx_throw_ucs(env, "ucp_ep_create", status);
            return;
        }
        __atomic_fetch_add(&endpoints_open, 1, __ATOMIC_RELAXED);
        flush_until_wired_up(e);
    }
    free(address);
    join_endpoint(conn, e);
    conn->peer_id = (uint32_t) peer_id;
    conn->peer_tag_secret = (uint64_t) peer_tag_secret;
    conn->peer_message_key = (uint32_t) peer_message_key;
}

/* What ucp_ep_print_info says about the endpoint: its lanes and the transports behind them. */
static jstring java_conn_describe(JNIEnv *env, jclass cls, jlong conn_ptr) {
    (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    if (conn->ep == NULL) {
        return (*env)->NewStringUTF(env, "not connected");
    }
    char *text = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&text, &size);
    if (stream == NULL) {
        nucx_throw_errno(env, "open_memstream", errno);
        return NULL;
    }
    ucp_ep_print_info(conn->ep, stream);
    fclose(stream);
    jstring result = (*env)->NewStringUTF(env, text);
    free(text);
    return result;
}

/* ---- close ---- */

/* The peer's stream ended: it flushed everything before the end (or died), and sends nothing more. */
void nucx_conn_peer_ended(nucx_conn *conn) {
    conn->linger.peer_gone_ns = nucx_now_nanos();
    nucx_conn_peer_done(conn);
}

/* Whether a closing connection can be freed now; moves its linger on as time passes. */
int nucx_conn_reapable(nucx_conn *conn, uint64_t now) {
    if (now >= conn->linger.deadline_ns) {
        nucx_conn_peer_done(conn);
    }
    /* What the tag path sent is UCX's, and the endpoint's close (close_req) flushes it. */
    if (!conn->linger.write_shut && conn->linger.close_req == NULL) {
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

/* Frees a closed connection (see the top of this file); its memory goes in conn_release. */
void nucx_conn_free(nucx_conn *conn) {
    /* Closed only now, so that the peer sees end-of-stream after every byte we sent was delivered. */
    if (conn->linger.side_fd >= 0) {
        close(conn->linger.side_fd);
    }
    if (conn->linger.report_free) {
        record_freed(conn->worker, conn->id);
    }
    nucx_ids_remove(conn->worker, conn);
    conn_release(conn);
}

/* The connection's flush, or its endpoint's close, finished: its sends are delivered (or failed). */
static void closed_callback(nucx_conn *conn, void *request) {
    conn->linger.close_req = NULL;
    conn->outstanding--;
    ucp_request_free(request);
}

static void flush_callback(void *request, ucs_status_t status, void *user_data) {
    (void) status;
    closed_callback(user_data, request);
}

static void ep_close_callback(void *request, ucs_status_t status, void *user_data) {
    (void) status;
    nucx_endpoint *e = user_data;
    /* Called inside ucp_ep_close_nbx: close_endpoint still uses the record and frees it itself. */
    int inside_close = e->closer->linger.close_req == NUCX_REQ_POSTING;
    e->closing = 0;
    closed_callback(e->closer, request);
    if (!inside_close) {
        nucx_endpoint_free_if_done(e);
    }
}

/*
 * Tracks a flush or close request as the connection's close_req (see ucx_linger.c: write_shut waits
 * for it). Returns 1 when it completed (or failed) at once, without a callback.
 */
static int track_close_request(nucx_conn *conn, void *req) {
    if (req == NULL || UCS_PTR_IS_ERR(req)) {
        conn->linger.close_req = NULL;
        conn->outstanding--;
        return 1;
    }
    if (conn->linger.close_req == NUCX_REQ_POSTING) {
        conn->linger.close_req = req;
    }
    return 0;
}

/*
 * The connection leaves its endpoint. Its sends are flushed (unless force) before the side channel's
 * write half is shut; the last connection on the endpoint closes it, which flushes as well.
 */
static void close_endpoint(nucx_conn *conn, int force) {
    nucx_endpoint *e = conn->endpoint;
    if (e == NULL) {
        return;
    }
    leave_endpoint(conn);
    ucp_request_param_t param = {
        .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS,
        .flags = force ? UCP_EP_CLOSE_FLAG_FORCE : 0,
    };
    if (e->users > 0) {
        if (force) {
            return; /* the peer is gone: nothing to flush */
        }
        param.op_attr_mask &= ~(uint32_t) UCP_OP_ATTR_FIELD_FLAGS;
        param.cb.send = flush_callback;
        param.user_data = conn;
        conn->linger.close_req = NUCX_REQ_POSTING;
        conn->outstanding++;
        track_close_request(conn, ucp_ep_flush_nbx(e->ep, &param));
        return;
    }
    nucx_endpoint_unlist(conn->worker, e);
    __atomic_sub_fetch(&endpoints_open, 1, __ATOMIC_RELAXED);
    param.cb.send = ep_close_callback;
    param.user_data = e;
    e->closer = conn;
    e->closing = 1;
    conn->linger.close_req = NUCX_REQ_POSTING;
    conn->outstanding++;
    if (track_close_request(conn, ucp_ep_close_nbx(e->ep, &param))) {
        e->closing = 0;
    }
    nucx_endpoint_free_if_done(e); /* unless the close (or the wire-up flush) is still in flight */
}

/*
 * Hands the connection over to its worker (see the top of this file). Java must have removed
 * side_fd from its own epoll registration first; from here on the connection owns side_fd.
 * force: the peer is gone, so nothing is flushed and nothing more will arrive.
 */
void nucx_conn_close(nucx_conn *conn, int side_fd, int force, int report_free) {
    nucx_worker *w = conn->worker;
    conn_unpark(conn);
    conn->linger.report_free = report_free;
    unlink_live(conn);
    conn->closing = 1;
    conn->linger.side_fd = side_fd;
    conn->linger.deadline_ns = nucx_now_nanos() + NUCX_LINGER_NANOS;
    if (force) {
        conn->linger.peer_gone_ns = nucx_now_nanos();
    }
    nucx_tag_close(conn, side_fd, force);
    close_endpoint(conn, force);
    conn->linger.next_closing = w->closing;
    w->closing = conn;
}

/* report_free: Java keeps buffers of sends in flight until workerTakeFreed lists this connection. */
static void java_conn_close(JNIEnv *env, jclass cls, jlong conn_ptr, jint side_fd, jboolean force,
                            jboolean report_free) {
    (void) env; (void) cls;
    nucx_conn_close((nucx_conn *) (intptr_t) conn_ptr, side_fd, force, report_free);
}

/* A view of native memory the connection owns; Java must not use it after connClose. */
static jobject java_direct_buffer(JNIEnv *env, jclass cls, jlong address, jint length) {
    (void) cls;
    return (*env)->NewDirectByteBuffer(env, (void *) (intptr_t) address, (jlong) length);
}

/* The address of a direct buffer's memory: what Unsafe would tell, where the JDK does not offer Unsafe. */
static jlong java_buffer_address(JNIEnv *env, jclass cls, jobject buffer) {
    (void) cls;
    return (jlong) (intptr_t) (*env)->GetDirectBufferAddress(env, buffer);
}

static jlong java_connections_allocated(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return (jlong) __atomic_load_n(&allocated_connections, __ATOMIC_RELAXED);
}

static jlong java_endpoints_created(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return (jlong) __atomic_load_n(&endpoints_created, __ATOMIC_RELAXED);
}

static jlong java_endpoints_open(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return (jlong) __atomic_load_n(&endpoints_open, __ATOMIC_RELAXED);
}

static const JNINativeMethod methods[] = {
    {"endpointsCreated", "()J", (void *) java_endpoints_created},
    {"endpointsOpen", "()J", (void *) java_endpoints_open},
    {"connectionsAllocated", "()J", (void *) java_connections_allocated},
    {"directBuffer", "(JI)Ljava/nio/ByteBuffer;", (void *) java_direct_buffer},
    {"bufferAddress", "(Ljava/nio/ByteBuffer;)J", (void *) java_buffer_address},
    {"connCreate", "(JIIIII[J)V", (void *) java_conn_create},
    {"connConnect", "(J[B[BIJIZ)V", (void *) java_conn_connect},
    {"connSend", "(JIIII)I", (void *) java_conn_send},
    {"connSendIov", "(JIIII)I", (void *) java_conn_send_iov},
    {"connSendCredits", "(JI)I", (void *) java_conn_send_credits},
    {"connPostRecv", "(JIIJJ)V", (void *) java_conn_post_recv},
    {"connPark", "(JI)I", (void *) java_conn_park},
    {"connUnpark", "(J)V", (void *) java_conn_unpark},
    {"connDescribe", "(J)Ljava/lang/String;", (void *) java_conn_describe},
    {"connClose", "(JIZZ)V", (void *) java_conn_close},
};

int nucx_register_conn(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
