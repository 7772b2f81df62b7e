/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * What every file of the netty-ucx JNI library shares: the values Java shares with it (exported to Java
 * by ucx_constants.c), the two central types' names and a few helpers. Everything else is declared by
 * the header of the file that defines it (ucx_conn.h for ucx_conn.c, and so on).
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
 * process with an endpoint to this worker has to guess 32 + 17 + 14 bits to hit a posted receive,
 * and then the 32-bit message key in the header (below) for the message to count.
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
 * reposted), then the receiver's message key (random per connection, told in its hello). A data
 * message's payload follows it; a control message is only the header. Credits travel in the
 * payload because UCX 1.13 does not report the sender's tag reliably to receive callbacks (only
 * the length). The key is checked because UCX 1.13 does not say which endpoint a tagged message
 * came from: one with the right tag but not the key is dropped as a stray (ucx_tag_path.c).
 */
#define NUCX_HEADER_BYTES 8
#define NUCX_HEADER_KEY_OFFSET 4

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

/*
 * Words of the connection state block shared with Java: this header, then one word per receive
 * slot (NUCX_RECV_* or a payload length), then one per send slot (NUCX_SEND_*).
 */
enum nucx_state_word {
    NUCX_STATE_NOTIFIED,   /* 1 while the connection is on its worker's ready list; Java clears it */
    NUCX_STATE_ERROR,      /* the first error (a ucs_status_t or NUCX_ERR_*), 0 while there is none */
    NUCX_STATE_CREDITS,    /* credits the peer returned so far, modulo 2^32 */
    NUCX_STATE_WIRED_UP,   /* 1 once the endpoint's first flush completed: its lanes are final */
    NUCX_STATE_HELD,       /* messages held for the parked connection (ucx_park.c) until Java posts receives */
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
    NUCX_CREATED_SEND_AREA, /* its send slots: slot i's I/O vector at i strides, its header after it */
    NUCX_CREATED_ID,        /* its connection id (the receiver's part of the tag) */
    NUCX_CREATED_SEND_STRIDE, /* bytes from one send slot to the next: an I/O vector of NUCX_MAX_IOV entries, header, payload */
    NUCX_CREATED_TAG_SECRET, /* its tag secret (the rest of the receiver's part of the tag) */
    NUCX_CREATED_MESSAGE_KEY, /* its message key (the header's second word), as an unsigned 32-bit value */
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
/*
 * What socketSendFile returns when the region's bytes cannot come from its file (nothing sent): Java copies them.
 * Negative, since every count of bytes sent is a possible result, and not -1, which a call that threw returns.
 */
#define NUCX_SEND_FILE_DECLINED (-2)

/* Java writes the I/O vector entries of send slots itself, each field as a 64-bit value. */
_Static_assert(sizeof(((ucp_dt_iov_t *) 0)->buffer) == 8 && sizeof(((ucp_dt_iov_t *) 0)->length) == 8,
               "UcxConnection writes the fields of ucp_dt_iov_t as longs");

typedef struct nucx_worker nucx_worker;
typedef struct nucx_conn nucx_conn;

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
