/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * ucx_conn.c: the connection core. A connection's memory, its UCP endpoint, its credit messages, its
 * parking and its close belong to the core, which sends and receives its data messages on the tag path
 * (ucx_tag_path.c); what their completions report to Java is ucx_conn_events.c's, which both use.
 */
#ifndef NETTY_UCX_CONN_H
#define NETTY_UCX_CONN_H

#include "ucx_native.h"


typedef struct {
    nucx_conn *conn;
    int index;
} nucx_slot_ref;

/*
 * A connection's close (the top of ucx_conn.c tells the whole lifetime): zero, with side_fd -1, until
 * Java closes it; then what it waits for while it lingers on its worker's closing list.
 */
typedef struct {
    int side_fd;             /* the side channel's socket, owned by the connection once it is closing, or -1 */
    int side_watched;        /* side_fd is in the worker's epoll set (the tag path lingers on it) */
    int report_free;         /* Java holds buffers UCX may still use: list the id when the connection is freed */
    int write_shut;          /* our endpoint flushed, so we told the peer with shutdown(SHUT_WR) */
    int peer_done;           /* the peer will send nothing more: receives are cancelled */
    int receives_orphaned;   /* receives UCX never completes were let go; recv_refs outlive the connection */
    uint64_t peer_gone_ns;   /* when the peer was known to send nothing more (its side channel ended, or it died) */
    uint64_t deadline_ns;    /* when lingering ends: receives are cancelled, what the peer did not take is given up */
    void *close_req;         /* ucp_ep_close_nbx request still in progress */
    nucx_conn *next_closing; /* the worker's closing list */
} nucx_linger;

struct nucx_conn {
    nucx_worker *worker;
    ucp_ep_h ep;               /* endpoint->ep while it is on one, else NULL */
    struct nucx_endpoint *endpoint; /* the endpoint to the peer's worker, shared with its other connections */
    nucx_conn *next_on_ep;     /* the endpoint's list of connections */
    nucx_conn *prev_on_ep;
    uint32_t id;
    uint32_t peer_id;
    uint64_t tag_secret;      /* ours, in the tags of the messages we receive (see the tag layout) */
    uint64_t peer_tag_secret; /* the peer's, in the tags of the messages we send */
    uint32_t message_key;     /* ours, in the headers of the messages we receive */
    uint32_t peer_message_key; /* the peer's, in the headers of the messages we send (0 until connConnect) */
    int32_t index;
    int32_t recv_slots;
    int32_t recv_slot_bytes;
    int32_t send_slots;
    int32_t send_slot_bytes;
    int32_t outstanding;   /* requests whose completion has not run yet */
    uint32_t sent;         /* data messages posted: the most credits the peer can return */
    int closing;           /* Java closed it (connClose): callbacks stop reporting to Java, it lingers */
    nucx_linger linger;    /* the rest of its close */
    volatile int32_t *state; /* shared with Java: header + recv states + send states */
    char **recv_bufs;      /* per slot: the buffer (owned by Java) its receive is posted into */
    uint32_t *recv_seqs;   /* per slot: the sequence number its receive was posted for */
    int repost_slot;       /* the slot whose receive took a forged message inside its own post (ucx_tag_path.c) */
    char *send_area;       /* the send slots, each after its I/O vector: nucx_send_slot, nucx_send_iov */
    size_t send_stride;    /* bytes from one slot's I/O vector to the next one's */
    size_t send_area_bytes; /* the length of send_area's mapping */
    ucp_mem_h send_memh;   /* registration of send_area, or NULL */
    void **recv_reqs;      /* per slot: its UCX receive while one is posted */
    void **send_reqs;
    nucx_slot_ref *recv_refs;
    nucx_slot_ref *send_refs;
    void *ctrl_recv_req;
    uint32_t ctrl_recv_buf[3]; /* a header and a word more, so that a longer message shows in its length */
    uint32_t ctrl_send_buf[2];
    int ctrl_send_pending;   /* UCX still holds ctrl_send_buf */
    int parked;              /* no data receive posted: messages are held (ucx_park.c) until Java posts them */
    uint32_t park_base;      /* the sequence field of the first message the parked connection waits for */
    struct nucx_held_message *held; /* NUCX_HELD_PER_SLOT * recv_slots entries: the messages held while parked */
    int32_t held_count;
    nucx_conn *prev_live;    /* the worker's list of connections Java has not closed */
    nucx_conn *next_live;
};

/*
 * Tag layout (see ucx_native.h) of a tag secret's parts: the sequence base, the control nonce and
 * the key.
 */
static inline uint32_t nucx_secret_base(uint64_t secret) {
    return (uint32_t) secret & NUCX_TAG_SEQ_MASK;
}

static inline uint32_t nucx_secret_nonce(uint64_t secret) {
    return (uint32_t) (secret >> 17) & NUCX_TAG_SEQ_MASK;
}

static inline uint32_t nucx_secret_key(uint64_t secret) {
    return (uint32_t) (secret >> 34) & NUCX_TAG_KEY_MASK;
}

/* The sequence field of a data message's tag (see the tag layout). */
static inline uint32_t nucx_tag_seq(uint32_t seq, uint64_t secret) {
    return (seq + nucx_secret_base(secret)) & NUCX_TAG_SEQ_MASK;
}

static inline uint64_t nucx_data_tag(uint32_t id, uint64_t secret, uint32_t seq) {
    return ((uint64_t) id << NUCX_TAG_ID_SHIFT)
           | ((uint64_t) nucx_tag_seq(seq, secret) << NUCX_TAG_SEQ_SHIFT)
           | nucx_secret_key(secret);
}

static inline uint64_t nucx_ctrl_tag(uint32_t id, uint64_t secret) {
    return ((uint64_t) id << NUCX_TAG_ID_SHIFT) | NUCX_TAG_CTRL_BIT
           | ((uint64_t) nucx_secret_nonce(secret) << NUCX_TAG_SEQ_SHIFT) | nucx_secret_key(secret);
}

static inline volatile int32_t *nucx_recv_state(nucx_conn *conn) {
    return conn->state + NUCX_STATE_HEADER_WORDS;
}

static inline volatile int32_t *nucx_send_state(nucx_conn *conn) {
    return conn->state + NUCX_STATE_HEADER_WORDS + conn->recv_slots;
}

/* Bytes of a send slot's I/O vector: NUCX_MAX_IOV entries, filled by Java after entry 0. */
#define NUCX_SLOT_IOV_BYTES ((size_t) NUCX_MAX_IOV * sizeof(ucp_dt_iov_t))

/* A send slot's I/O vector, in front of the slot's header: a small send touches one page of the area. */
static inline ucp_dt_iov_t *nucx_send_iov(nucx_conn *conn, int slot) {
    return (ucp_dt_iov_t *) (void *) (conn->send_area + (size_t) slot * conn->send_stride);
}

/* A send slot's header, then its payload: send_slot_bytes in all. */
static inline char *nucx_send_slot(nucx_conn *conn, int slot) {
    return (char *) nucx_send_iov(conn, slot) + NUCX_SLOT_IOV_BYTES;
}

/* Unexpected messages the worker's sweep found: 1 when one was held for a parked connection. */
NUCX_HIDDEN int nucx_conn_take_unexpected(nucx_worker *w, ucp_tag_message_h message, const ucp_tag_recv_info_t *info);

/* UCX receives of the connection. */
NUCX_HIDDEN int nucx_conn_waits_only_for_receives(const nucx_conn *conn);
NUCX_HIDDEN int nucx_conn_orphan_receives(nucx_conn *conn);

/* Its close and its end, for the worker's closing list (ucx_linger.c). */
NUCX_HIDDEN void nucx_conn_close(nucx_conn *conn, int side_fd, int force, int report_free);
NUCX_HIDDEN void nucx_conn_peer_ended(nucx_conn *conn);
NUCX_HIDDEN int nucx_conn_reapable(nucx_conn *conn, uint64_t now);
NUCX_HIDDEN void nucx_conn_free(nucx_conn *conn);

NUCX_HIDDEN int nucx_register_conn(JNIEnv *env, jclass cls);

#endif
