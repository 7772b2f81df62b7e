/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Shared declarations of the netty-ucx JNI library.
 *
 * Memory shared with Java is laid out as plain int32 arrays so that the Java side can read it with
 * absolute memory access after each progress call, without any upcall (see UcxConnection.java and
 * UcxWorker.java for the Java view of these layouts; keep both in sync).
 */
#ifndef NETTY_UCX_NATIVE_H
#define NETTY_UCX_NATIVE_H

#include <errno.h>
#include <jni.h>
#include <stdint.h>
#include <time.h>
#include <ucp/api/ucp.h>

#define NUCX_HIDDEN __attribute__((visibility("hidden")))

/*
 * Tag layout: [63..32] receiver's connection id, [31] control flag, [30..14] data: (sequence +
 * receiver's sequence base) mod 2^17, control: receiver's control nonce, [13..0] receiver's tag key.
 * Base, nonce and key are the receiver's tag secret (random per connection, told in its hello): a
 * process with an endpoint to this worker has to guess 32 + 17 + 14 bits to hit a posted receive.
 * 2^17 sequence numbers exceed the largest window (2^16), so the posted receives' tags stay distinct.
 */
#define NUCX_TAG_ID_SHIFT 32
#define NUCX_TAG_CTRL_BIT ((uint64_t) 1 << 31)
#define NUCX_TAG_SEQ_SHIFT 14
#define NUCX_TAG_SEQ_MASK 0x1FFFFu
#define NUCX_TAG_KEY_MASK 0x3FFFu
/*
 * Receives match whole tags: UCX keeps a receive with a full mask in a hash of its tag, and any other
 * in one wildcard queue that every arriving message then walks, so that a message's cost grew with
 * the receives posted by all of the worker's connections.
 */
#define NUCX_TAG_DATA_MATCH_MASK 0xFFFFFFFFFFFFFFFFull
#define NUCX_TAG_CTRL_MATCH_MASK 0xFFFFFFFFFFFFFFFFull

/*
 * Every message starts with this header: the credits the sender returns (receive slots it
 * reposted). A data message's payload follows it; a control message is only the header.
 * Credits travel in the payload because UCX 1.13 does not report the sender's tag reliably to
 * receive callbacks (only the length).
 */
#define NUCX_HEADER_BYTES 4
/* A side-channel record's bytes: type u8 and a message count u32 (UcxHandshake.RECORD_BYTES). */
#define NUCX_RECORD_BYTES 5
/* Record types (UcxHandshake): output shut down, closed with a reset. */
#define NUCX_RECORD_SHUTDOWN_OUTPUT 'S'
#define NUCX_RECORD_RESET 'R'

/* Values of a receive slot's state word: >= 0 is a completed payload length, other negatives are ucs_status_t. */
#define NUCX_RECV_POSTED (-1000000)
#define NUCX_RECV_IDLE (-1000001)

/*
 * Stands in a request slot while a UCX call that may return a request runs: UCX can complete an
 * operation and call its callback before the call returns (a receive that matches an unexpected
 * rendezvous whose get finishes at once). Callbacks clear the slot; the poster stores the
 * returned request only if the sentinel is still there.
 */
#define NUCX_REQ_POSTING ((void *) 1)

/*
 * I/O vector entries per send slot: the header, then the payload pieces (bytes copied into the
 * slot, and buffers sent from their own memory).
 */
#define NUCX_MAX_IOV 64

/* Values of a send slot's state word: negatives are ucs_status_t of a failed send. */
#define NUCX_SEND_FREE 0
#define NUCX_SEND_BUSY 1

/*
 * Errors of our own protocol, reported through the state block's error word like a ucs_status_t
 * (outside UCX's range; statusString describes them).
 */
#define NUCX_ERR_OUTSIDE_WINDOW (-2000)
#define NUCX_ERR_BAD_CREDITS (-2001)
#define NUCX_ERR_BAD_FRAME (-2002)
#define NUCX_ERR_FILE_SEND (-2003)

/* Bytes a stray message is received into before it is dropped; longer ones are truncated. */
#define NUCX_STRAY_BUFFER_BYTES (64 * 1024 + NUCX_HEADER_BYTES)

/*
 * Words of the connection state block shared with Java: this header, then one word per receive
 * slot (NUCX_RECV_* or a payload length), then one per send slot (NUCX_SEND_*).
 */
enum nucx_state_word {
    NUCX_STATE_NOTIFIED,   /* 1 while the connection is on its worker's ready list; Java clears it */
    NUCX_STATE_ERROR,      /* the first error (a ucs_status_t or NUCX_ERR_*), 0 while there is none */
    NUCX_STATE_CREDITS,    /* credits the peer returned so far, modulo 2^32 */
    NUCX_STATE_WIRED_UP,   /* 1 once the endpoint's first flush completed: its lanes are final */
    NUCX_STATE_SIDE_INPUT, /* 1 while the TCP data path holds side-channel records or its end for Java */
    NUCX_STATE_HEADER_WORDS
};

/*
 * Words of the worker's ready list shared with Java: this header, then the indices of the connections
 * to dispatch. The capacity is twice the connection indices: Java dispatches the listed ones once per
 * drain, and dispatching one can list it again (at most once, its NOTIFIED flag stops more), so a
 * drain never holds more.
 */
enum nucx_ready_word {
    NUCX_READY_COUNT,      /* indices listed; Java takes them off as it dispatches them */
    NUCX_READY_CAPACITY,   /* room for indices */
    NUCX_READY_OVERFLOWED, /* 1 when an index did not fit (cannot happen): Java dispatches every connection */
    NUCX_READY_HEADER_WORDS
};

/* Elements of the long[] that connCreate fills. */
enum nucx_created_word {
    NUCX_CREATED_CONN,      /* the nucx_conn pointer */
    NUCX_CREATED_STATE,     /* its state block (enum nucx_state_word) */
    NUCX_CREATED_SEND_AREA, /* its send slots */
    NUCX_CREATED_ID,        /* its connection id (the receiver's part of the tag) */
    NUCX_CREATED_SEND_IOVS, /* its I/O vectors, NUCX_MAX_IOV ucp_dt_iov_t per send slot */
    NUCX_CREATED_TAG_SECRET, /* its tag secret (the rest of the receiver's part of the tag) */
    NUCX_CREATED_WORDS
};

/* Elements of the long[] that memoryMap fills (see UcxMemoryRegion.java). */
enum nucx_map_word {
    NUCX_MAP_ADDRESS, /* the mapping */
    NUCX_MAP_MEMH,    /* its ucp_mem_h, or 0 when registration failed */
    NUCX_MAP_STATUS,  /* the ucs_status_t of ucp_mem_map */
    NUCX_MAP_WORDS
};

/* Words (int32) of each socket event workerWait writes for Java. */
enum nucx_event_word {
    NUCX_EVENT_FD,     /* the socket */
    NUCX_EVENT_EVENTS, /* its epoll events (EPOLLIN...) */
    NUCX_EVENT_WORDS
};

/*
 * Bytes of the byte[] datagramRecvFrom writes a datagram's sender into (ucx_datagram.c): the ip, IPv4 in
 * its first 4 bytes, then the IPv6 scope id and the port, big endian, then the ip's length (4 or 16).
 * Unused bytes are zero, so that equal senders give equal arrays.
 */
enum nucx_sender_byte {
    NUCX_SENDER_IP = 0,
    NUCX_SENDER_SCOPE_ID = 16,
    NUCX_SENDER_PORT = 20,
    NUCX_SENDER_IP_LENGTH = 22,
    NUCX_SENDER_BYTES = 24
};

/* What connSendCredits returns when the previous credit message is still in flight (nothing sent). */
#define NUCX_CREDITS_BUSY 2
/* What connStreamSendFile returns when the region's bytes cannot come from its file (nothing queued): copy them. */
#define NUCX_SEND_FILE_DECLINED 2

/* Java writes the I/O vector entries of send slots itself, each field as a 64-bit value. */
_Static_assert(sizeof(((ucp_dt_iov_t *) 0)->buffer) == 8 && sizeof(((ucp_dt_iov_t *) 0)->length) == 8,
               "UcxConnection writes the fields of ucp_dt_iov_t as longs");

typedef struct nucx_worker nucx_worker;
typedef struct nucx_conn nucx_conn;
typedef struct nucx_probe nucx_probe;
typedef struct nucx_stream nucx_stream;

typedef struct {
    nucx_conn *conn;
    int index;
} nucx_slot_ref;

/*
 * A connection's close (ucx_close.c, whose top comment tells the whole lifetime): zero, with side_fd -1,
 * until Java closes it; then what it waits for while it lingers on its worker's closing list.
 */
typedef struct {
    int side_fd;             /* the side channel's socket, owned by the connection once it is closing, or -1 */
    int report_free;         /* Java holds buffers UCX may still use: list the id when the connection is freed */
    int write_shut;          /* our endpoint flushed, so we told the peer with shutdown(SHUT_WR) */
    int peer_done;           /* the peer will send nothing more: receives are cancelled */
    int receives_orphaned;   /* receives UCX never completes were let go; recv_refs outlive the connection */
    uint64_t peer_gone_ns;   /* when the peer was known to send nothing more (its side channel ended, or it died) */
    uint64_t deadline_ns;    /* when lingering ends: receives are cancelled, unsent stream data is dropped */
    void *close_req;         /* ucp_ep_close_nbx request still in progress */
    nucx_conn *next_closing; /* the worker's closing list */
} nucx_linger;

struct nucx_conn {
    nucx_worker *worker;
    ucp_ep_h ep;
    uint32_t id;
    uint32_t peer_id;
    uint64_t tag_secret;      /* ours, in the tags of the messages we receive (see the tag layout) */
    uint64_t peer_tag_secret; /* the peer's, in the tags of the messages we send */
    int32_t index;
    int32_t recv_slots;
    int32_t recv_slot_bytes;
    int32_t send_slots;
    int32_t send_slot_bytes;
    int32_t outstanding;   /* requests whose callbacks have not run yet */
    uint32_t sent;         /* data messages posted: the most credits the peer can return */
    int closing;           /* Java closed it (connClose): callbacks stop reporting to Java, it lingers */
    nucx_linger linger;    /* the rest of its close (ucx_close.c) */
    volatile int32_t *state; /* shared with Java: header + recv states + send states */
    char **recv_bufs;      /* per slot: the buffer (owned by Java) its receive is posted into */
    char *send_area;
    ucp_mem_h send_memh;   /* registration of send_area, or NULL */
    void **recv_reqs;
    void **send_reqs;
    nucx_slot_ref *recv_refs;
    nucx_slot_ref *send_refs;
    ucp_dt_iov_t *send_iovs; /* NUCX_MAX_IOV entries per send slot, filled by Java after entry 0 */
    void *ctrl_recv_req;
    uint32_t ctrl_recv_buf[2];
    uint32_t ctrl_send_buf;
    int ctrl_send_pending;   /* UCX still holds ctrl_send_buf */
    nucx_stream *stream;     /* the TCP data path (ucx_stream.c) in place of the endpoint, or NULL */
    nucx_conn *prev_live;    /* the worker's list of connections Java has not closed */
    nucx_conn *next_live;
};

struct nucx_worker {
    ucp_worker_h worker;
    int ucx_fd;
    int epoll_fd;
    int event_fd;
    int timer_fd;
    int32_t *ready;        /* shared with Java, see enum nucx_ready_word */
    int max_connections;   /* connection indices run from 0 to this, exclusive */
    nucx_conn *live;       /* connections Java has not closed yet */
    nucx_conn *closing;    /* connections waiting for their requests to finish before they are freed */
    uint32_t *freed_ids;   /* ids of freed connections that asked for report_free, until Java takes them */
    int freed_count;
    int freed_capacity;
    void *stray_buffer;    /* NUCX_STRAY_BUFFER_BYTES that stray messages are received into and dropped */
    nucx_probe *probe;     /* shared-memory probe (ucx_probe.c), once a same-host peer vanished */
    int stream_epoll_fd;   /* sockets of the connections on the TCP data path; itself in epoll_fd */
    int streams;           /* connections on the TCP data path, closing ones included */
    nucx_conn *deferred_streams; /* of those, the ones whose writes wait for the next progress */
};

/* ucx_context.c */
NUCX_HIDDEN ucp_context_h nucx_context(void);
NUCX_HIDDEN ucs_status_t nucx_context_init(void);

/* ucx_errors.c */
NUCX_HIDDEN void nucx_throw_io(JNIEnv *env, const char *what, const char *detail);
NUCX_HIDDEN void nucx_throw_errno(JNIEnv *env, const char *what, int err);
NUCX_HIDDEN void nucx_throw_ucs(JNIEnv *env, const char *what, ucs_status_t status);
NUCX_HIDDEN const char *nucx_status_string(int32_t status);
NUCX_HIDDEN void nucx_throw_connect(JNIEnv *env, int err);
NUCX_HIDDEN void nucx_throw_port_unreachable(JNIEnv *env, const char *what);
NUCX_HIDDEN int nucx_errors_init(JNIEnv *env);
NUCX_HIDDEN void nucx_errors_destroy(JNIEnv *env);

/*
 * epoll data of the worker's set: a Java-registered fd is stored as fd << 1; a closing
 * connection's side channel as the connection pointer with the low bit set.
 */
#define NUCX_EPOLL_CONN_BIT 1ull

static inline volatile int32_t *nucx_recv_state(nucx_conn *conn) {
    return conn->state + NUCX_STATE_HEADER_WORDS;
}

static inline volatile int32_t *nucx_send_state(nucx_conn *conn) {
    return conn->state + NUCX_STATE_HEADER_WORDS + conn->recv_slots;
}

static inline char *nucx_send_slot(nucx_conn *conn, int slot) {
    return conn->send_area + (size_t) slot * (size_t) conn->send_slot_bytes;
}

/* ucx_endpoint.c */
NUCX_HIDDEN void nucx_conn_notify(nucx_conn *conn);
NUCX_HIDDEN void nucx_conn_release(nucx_conn *conn);
NUCX_HIDDEN void nucx_conn_recv_done(nucx_conn *conn, int slot, ucs_status_t status, size_t length);
NUCX_HIDDEN void nucx_conn_add_credits(nucx_conn *conn, uint32_t credits);
NUCX_HIDDEN void nucx_conn_unlink_live(nucx_conn *conn);
NUCX_HIDDEN void nucx_conn_cancel_receives(nucx_conn *conn);
NUCX_HIDDEN void nucx_conn_fail(nucx_conn *conn, int32_t error);
NUCX_HIDDEN int nucx_conn_waits_only_for_receives(const nucx_conn *conn);
NUCX_HIDDEN int nucx_conn_orphan_receives(nucx_conn *conn);

/* ucx_stray.c */
NUCX_HIDDEN int nucx_sweep_strays(nucx_worker *w);
NUCX_HIDDEN void nucx_drop_all_strays(nucx_worker *w);

/* ucx_close.c */
NUCX_HIDDEN void nucx_conn_free(nucx_conn *conn);
NUCX_HIDDEN void nucx_reap_closed(nucx_worker *w);
NUCX_HIDDEN void nucx_linger_readable(nucx_conn *conn);
NUCX_HIDDEN void nucx_conn_peer_done(nucx_conn *conn);
NUCX_HIDDEN void nucx_conn_peer_ended(nucx_conn *conn);
NUCX_HIDDEN void nucx_abandon_closing(nucx_worker *w);
NUCX_HIDDEN void nucx_leave_closing(nucx_worker *w);
NUCX_HIDDEN int nucx_closing_needs_progress(const nucx_worker *w);
NUCX_HIDDEN void nucx_let_go_of_stuck_receives(nucx_worker *w);
NUCX_HIDDEN int nucx_close_live(nucx_worker *w);

/* ucx_stream.c */
NUCX_HIDDEN int nucx_streams_service(nucx_worker *w);
NUCX_HIDDEN jint nucx_stream_send(nucx_conn *conn, int slot, size_t count, int iov);
NUCX_HIDDEN void nucx_stream_post_recv(nucx_conn *conn, int slot, char *buffer);
NUCX_HIDDEN void nucx_stream_close(nucx_conn *conn, int side_fd, int force);
NUCX_HIDDEN int nucx_stream_drained(const nucx_conn *conn);
NUCX_HIDDEN void nucx_stream_linger_expired(nucx_conn *conn);
NUCX_HIDDEN void nucx_stream_free(nucx_conn *conn);
NUCX_HIDDEN int nucx_register_stream(JNIEnv *env, jclass cls);

/* ucx_file_region.c */
NUCX_HIDDEN int nucx_file_region_fd(JNIEnv *env, jobject region, int64_t position, uint32_t count);
NUCX_HIDDEN int nucx_file_region_open_fd(JNIEnv *env, jobject region);
NUCX_HIDDEN void nucx_file_bytes_sent(uint64_t n);
NUCX_HIDDEN int nucx_register_file_region(JNIEnv *env, jclass cls);

/* ucx_plain.c */
NUCX_HIDDEN int nucx_register_plain(JNIEnv *env, jclass cls);
NUCX_HIDDEN void nucx_file_region_destroy(JNIEnv *env);

/* ucx_log.c */
NUCX_HIDDEN int nucx_register_log(JNIEnv *env, jclass cls);
NUCX_HIDDEN void nucx_log_destroy(JNIEnv *env);

/* ucx_probe.c */
NUCX_HIDDEN void nucx_probe_free(nucx_worker *w);

/* ucx_memory.c */
NUCX_HIDDEN ucs_status_t nucx_mem_register(void *address, size_t length, ucp_mem_h *memh);

/* Registration tables: each file registers its own natives. */
NUCX_HIDDEN int nucx_register_constants(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_context(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_worker(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_endpoint(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_close(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_socket(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_peer(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_stray(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_datagram(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_memory(JNIEnv *env, jclass cls);
NUCX_HIDDEN int nucx_register_probe(JNIEnv *env, jclass cls);

/* A non-blocking socket call that failed with err took nothing now (or was interrupted): try again later. */
static inline int nucx_would_block(int err) {
    return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

#define NUCX_ARRAY_LEN(a) ((int) (sizeof(a) / sizeof((a)[0])))

static inline uint64_t nucx_now_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

#endif
