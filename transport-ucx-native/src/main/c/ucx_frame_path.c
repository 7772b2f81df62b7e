/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The frame path (the "TCP data path" of the docs and of Java): a connection whose peer UCX could
 * reach only over TCP sends its messages as frames on the side channel's own socket instead of through
 * a UCX endpoint. UCX's tcp transport receives
 * into segments of its own and copies every message out of them; here a message is read straight
 * into the receive slot it is for, and sent from the slot (or the buffers' own memory) with one
 * sendmsg per batch; a DefaultFileRegion's bytes go from its file to the socket with sendfile(2),
 * without passing through this process.
 *
 * Above the wire the same send and receive slots, sequence order and state block serve both paths,
 * so Java drives them alike: the connection core (ucx_conn.c) calls this path through its table,
 * frame_path, once connStreamStart moved the connection here; this file never calls the tag path.
 * Flow control is TCP's own: a data frame whose receive slot Java has not reposted yet waits in the
 * socket, and the sender's slots stay busy while the socket is full, so credits are neither needed
 * nor sent. On the wire each message is a frame:
 *   frame word u32 (big endian): [31..30] type, [29..0] length of what follows
 *   DATA:    the slot's bytes (the unused credit header, then payload), for the next slot in sequence
 *   RECORD:  a side-channel record (UcxHandshake), handed to Java as the side channel's input
 * Records travel in the same stream as the data, so they stay in order with it.
 *
 * A peer that does not speak netty-ucx is not served here: its plain TCP socket stays in the event
 * loop's epoll set, driven from Java (UcxPlainDataPath, ucx_plain.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include "ucx_conn.h"
#include "ucx_errors.h"
#include "ucx_file_region.h"
#include "ucx_frame_path.h"
#include "ucx_worker.h"

#define FRAME_DATA 0u
#define FRAME_RECORD 1u
#define FRAME_TYPE_SHIFT 30
#define FRAME_LENGTH_MASK 0x3FFFFFFFu
#define FRAME_WORD_BYTES 4

/* Bytes read from the socket at once when no large frame is being read. */
#define RX_BUFFER_BYTES (64 * 1024)
/* Bytes of a data frame still to come from which they are read straight into the receive slot. */
#define DIRECT_READ_MIN_BYTES 4096
/* Record bytes the connection keeps until Java takes them (a peer sends two records at most). */
#define RECORD_INBOX_BYTES 64
/* Entries of one sendmsg. */
#define MAX_WRITE_IOV 128
/* Queue entries beyond the send slots: two records and the unsent hello. */
#define EXTRA_ITEMS 4
/*
 * A message sent this soon after the connection's previous write waits for the worker's next
 * progress call, and goes out with whatever else was sent meanwhile: a sender writing in a burst
 * then makes one sendmsg per progress instead of one per flush. Over loopback each sendmsg also
 * carries the receiver's TCP processing: one-connection throughput against epoll rose from 0.71x
 * to 1.29x at 64 KiB and from 0.32x to 0.89x at 256 B (bin/bench --full). The first message after
 * a pause goes out at once, so a handler that writes and then blocks its event loop (which it
 * should not) still has that message sent; and a sender out of slots writes the burst at once
 * (java_conn_frame_flush), so it turns unwritable only when the socket is full.
 */
#define BURST_NANOS 20000ull

enum item_kind { ITEM_SLOT, ITEM_SLOT_IOV, ITEM_INLINE, ITEM_RAW };

/* The end of a data frame that comes straight from a file (sendfile) instead of from memory. */
typedef struct {
    int fd;          /* a descriptor of the file, owned by the item; -1 when the frame has no such end */
    uint32_t length; /* bytes of the frame that come from it */
    int64_t offset;  /* where in the file they start */
} file_part;

/* Something queued to be written: a frame word and what follows it, or raw bytes. */
typedef struct {
    uint8_t kind;
    int32_t slot;        /* ITEM_SLOT, ITEM_SLOT_IOV: the send slot */
    int32_t iov_count;   /* ITEM_SLOT_IOV: entries of the slot's I/O vector */
    uint32_t length;     /* bytes on the wire, frame word and file part included */
    uint8_t inline_bytes[FRAME_WORD_BYTES + 8]; /* the frame word, and for ITEM_INLINE its payload */
    char *raw;           /* ITEM_RAW: malloc'd bytes, freed once written */
    file_part file;      /* ITEM_SLOT, ITEM_SLOT_IOV: what follows the slot's bytes */
} write_item;

struct nucx_frames {
    int fd;               /* the side channel's socket; -1 once Java took it back to close it */
    int watched;          /* fd is in the worker's frame set */
    int write_blocked;    /* the socket buffer was full: wait for the next EPOLLOUT edge */
    int32_t broken;       /* a write failed (its status, which later sends get): nothing more goes out */
    int eof;              /* the peer's end of stream (or a read error) was reached */
    int hung_up;          /* epoll saw the peer's end: read on to it even after a short read */
    int end_errno;        /* the socket error that ended the stream (a timeout, a reset), or 0 */
    int paused;           /* the next data frame's slot is not reposted yet: the socket keeps it */
    int stopped;          /* closed without lingering, or the linger ran out: the socket is left alone */
    int deferred;         /* on the worker's list of queues written at its next progress */
    nucx_conn *next_deferred;
    uint64_t last_write_ns; /* when a message was last written at once */
    write_item *items;   /* ring of queued writes */
    int item_capacity;
    int item_head;
    int item_count;
    uint32_t head_written; /* bytes of the first item already written */
    char *rx;
    uint32_t rx_capacity;
    uint32_t rx_start;
    uint32_t rx_end;
    uint32_t frame_type;
    uint32_t frame_length;
    uint32_t frame_left;  /* bytes of the current frame still to come; 0 between frames */
    char *frame_dest;     /* where they go; NULL: dropped */
    int frame_slot;
    uint8_t small_frame[8];
    uint32_t rx_seq;      /* sequence number of the next data frame */
    uint32_t last_data_length; /* of the last data frame: the guess for the next one's */
    uint8_t records[RECORD_INBOX_BYTES];
    int records_length;
};

/* ---- epoll ---- */

/*
 * The socket stays in the worker's frame set, edge-triggered, from the start until nothing more is
 * to be read or written: pausing a reader or a blocked writer then costs no epoll_ctl. Edges need
 * the reader to read until the socket is drained (a short read) unless it pauses, and a paused reader
 * to read again when it resumes; a blocked writer waits for the next EPOLLOUT edge.
 */
static void update_watch(nucx_conn *conn) {
    nucx_frames *s = conn->frames;
    int wanted = s->fd >= 0 && !s->stopped && (!s->eof || (s->item_count > 0 && !s->broken));
    if (wanted == s->watched) {
        return;
    }
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET, .data.ptr = conn};
    epoll_ctl(conn->worker->frame_epoll_fd, wanted ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, s->fd, &ev);
    s->watched = wanted;
}

/* ---- send queue ---- */

static write_item *item_at(nucx_frames *s, int k) {
    return &s->items[(s->item_head + k) % s->item_capacity];
}

static write_item *push_item(nucx_frames *s, enum item_kind kind, uint32_t frame_type, uint32_t body_length) {
    if (s->item_count == s->item_capacity) {
        return NULL;
    }
    write_item *item = item_at(s, s->item_count++);
    memset(item, 0, sizeof(*item));
    item->kind = (uint8_t) kind;
    item->file.fd = -1;
    item->length = FRAME_WORD_BYTES + body_length;
    uint32_t word = htonl(frame_type << FRAME_TYPE_SHIFT | body_length);
    memcpy(item->inline_bytes, &word, sizeof(word));
    return item;
}

/* An item is done with (written, or dropped with status != UCS_OK): tell whoever waits for it. */
static void finish_item(nucx_conn *conn, write_item *item, int32_t status) {
    conn->outstanding--;
    if (item->file.fd >= 0) {
        close(item->file.fd);
        item->file.fd = -1;
    }
    switch (item->kind) {
    case ITEM_SLOT:
    case ITEM_SLOT_IOV:
        if (!conn->closing) {
            nucx_send_state(conn)[item->slot] = status == UCS_OK ? NUCX_SEND_FREE : status;
            nucx_conn_notify(conn);
        }
        break;
    case ITEM_INLINE:
        break;
    case ITEM_RAW:
        free(item->raw);
        break;
    }
}

static void pop_item(nucx_conn *conn, int32_t status) {
    nucx_frames *s = conn->frames;
    write_item *item = item_at(s, 0);
    s->item_head = (s->item_head + 1) % s->item_capacity;
    s->item_count--;
    s->head_written = 0;
    finish_item(conn, item, status);
}

/* Drops every queued write: the socket is gone, broken, or given up on. */
static void drop_queue(nucx_conn *conn, int32_t status) {
    while (conn->frames->item_count > 0) {
        pop_item(conn, status);
    }
}

typedef struct {
    struct iovec *iov;
    int count;
    uint32_t skip;
    int before_file; /* the gathering stopped at an item's file part, which sendfile sends next */
} gather_state;

static int add_piece(gather_state *g, const void *base, size_t length) {
    if (g->count == MAX_WRITE_IOV) {
        return 0;
    }
    if (g->skip >= length) {
        g->skip -= (uint32_t) length;
        return 1;
    }
    g->iov[g->count].iov_base = (char *) base + g->skip;
    g->iov[g->count].iov_len = length - g->skip;
    g->count++;
    g->skip = 0;
    return 1;
}

/* Bytes of an item that are in memory: all but its file part. */
static uint32_t memory_bytes(const write_item *item) {
    return item->length - item->file.length;
}

static int add_memory(nucx_conn *conn, const write_item *item, gather_state *g) {
    switch (item->kind) {
    case ITEM_RAW:
        return add_piece(g, item->raw, item->length);
    case ITEM_INLINE:
        return add_piece(g, item->inline_bytes, item->length);
    case ITEM_SLOT:
        return add_piece(g, item->inline_bytes, FRAME_WORD_BYTES) &&
               add_piece(g, nucx_send_slot(conn, item->slot), memory_bytes(item) - FRAME_WORD_BYTES);
    default: {
        const ucp_dt_iov_t *entries = nucx_send_iov(conn, item->slot);
        if (!add_piece(g, item->inline_bytes, FRAME_WORD_BYTES)) {
            return 0;
        }
        for (int i = 0; i < item->iov_count; i++) {
            if (!add_piece(g, entries[i].buffer, entries[i].length)) {
                return 0;
            }
        }
        return 1;
    }
    }
}

/* Adds an item's bytes in memory; returns 0 when the next item must wait (no room, or a file part comes first). */
static int add_item(nucx_conn *conn, const write_item *item, gather_state *g) {
    if (!add_memory(conn, item, g)) {
        return 0;
    }
    g->before_file = item->file.fd >= 0;
    return !g->before_file;
}

static void advance(nucx_conn *conn, size_t written) {
    nucx_frames *s = conn->frames;
    while (written > 0 && s->item_count > 0) {
        uint32_t left = item_at(s, 0)->length - s->head_written;
        if (written < left) {
            s->head_written += (uint32_t) written;
            return;
        }
        written -= left;
        pop_item(conn, UCS_OK);
    }
}

static void write_failed(nucx_conn *conn, int32_t status) {
    conn->frames->broken = status;
    drop_queue(conn, status);
}

/*
 * A file part could not be sent to its end: the peer waits for bytes of a frame that will never
 * come, so the stream ends here (shutting the write half tells the peer so at once), and the sends
 * that wait, and those after, fail with the reason.
 */
static void file_failed(nucx_conn *conn) {
    write_failed(conn, NUCX_ERR_FILE_SEND);
    shutdown(conn->frames->fd, SHUT_WR);
}

/* Errors of sendfile that come from the socket rather than from the file. */
static int socket_errno(int err) {
    return err == EPIPE || err == ECONNRESET || err == ENOTCONN || err == ETIMEDOUT || err == EHOSTUNREACH ||
           err == ENETUNREACH;
}

/* True when the next bytes to write are the head item's file part. */
static int at_file_part(nucx_frames *s) {
    const write_item *head = item_at(s, 0);
    return head->file.fd >= 0 && s->head_written >= memory_bytes(head);
}

/* Writes the queued bytes in memory from the head on, up to the next file part; returns as sendmsg. */
static ssize_t write_memory(nucx_conn *conn) {
    nucx_frames *s = conn->frames;
    struct iovec iov[MAX_WRITE_IOV];
    gather_state g = {.iov = iov, .count = 0, .skip = s->head_written};
    for (int k = 0; k < s->item_count && add_item(conn, item_at(s, k), &g); k++) {
    }
    struct msghdr msg = {.msg_iov = iov, .msg_iovlen = (size_t) g.count};
    /* A frame's start waits in the socket for the file's bytes sent right after it, as one segment. */
    return sendmsg(s->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT | (g.before_file ? MSG_MORE : 0));
}

/*
 * Sends the rest of the head item's file part from the file to the socket, without a copy through
 * this process. Returns as sendfile: 0 when the file ended before the part did. (sendfile has no
 * MSG_NOSIGNAL: a peer's reset raises SIGPIPE, which the JVM's own handler ignores.)
 */
static ssize_t write_file_part(nucx_frames *s) {
    const write_item *head = item_at(s, 0);
    uint32_t done = s->head_written - memory_bytes(head);
    off_t offset = (off_t) (head->file.offset + done);
    ssize_t n = sendfile(s->fd, head->file.fd, &offset, head->file.length - done);
    if (n > 0) {
        nucx_file_bytes_sent((uint64_t) n);
    }
    return n;
}

/* Writes what is queued, in order, until done or the socket buffer is full. */
static void write_queue(nucx_conn *conn) {
    nucx_frames *s = conn->frames;
    while (s->item_count > 0 && !s->broken && s->fd >= 0) {
        int from_file = at_file_part(s);
        ssize_t n = from_file ? write_file_part(s) : write_memory(conn);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            s->write_blocked = 1;
            break;
        }
        if (n <= 0) {
            if (from_file && (n == 0 || !socket_errno(errno))) {
                file_failed(conn);
            } else {
                write_failed(conn, UCS_ERR_CONNECTION_RESET);
            }
            break;
        }
        advance(conn, (size_t) n);
        s->write_blocked = 0;
    }
    update_watch(conn);
}

/* Writes the queue now, or at the worker's next progress when the connection is in a burst. */
static void write_soon(nucx_conn *conn) {
    nucx_frames *s = conn->frames;
    if (s->write_blocked || s->deferred) {
        return;
    }
    uint64_t now = nucx_now_nanos();
    if (now - s->last_write_ns < BURST_NANOS) {
        s->deferred = 1;
        s->next_deferred = conn->worker->deferred_frames;
        conn->worker->deferred_frames = conn;
        return;
    }
    s->last_write_ns = now;
    write_queue(conn);
}

/* Takes a connection off the deferred list (written now, closing or freed). */
static void forget_deferred(nucx_conn *conn) {
    if (!conn->frames->deferred) {
        return;
    }
    nucx_conn **link = &conn->worker->deferred_frames;
    while (*link != conn) {
        link = &(*link)->frames->next_deferred;
    }
    *link = conn->frames->next_deferred;
    conn->frames->deferred = 0;
    conn->frames->next_deferred = NULL;
}

/* Writes the queue now, deferred part included (unless the socket is full: its EPOLLOUT edge writes it). */
static void write_now(nucx_conn *conn) {
    forget_deferred(conn);
    if (!conn->frames->write_blocked) {
        write_queue(conn);
    }
}

/* Writes the queues deferred by write_soon; called at each progress of the worker. */
static void write_deferred(nucx_worker *w) {
    while (w->deferred_frames != NULL) {
        nucx_conn *conn = w->deferred_frames;
        conn->frames->last_write_ns = nucx_now_nanos();
        write_now(conn); /* takes it off the head of the list */
    }
}

/* Why nothing more can be sent: the first write failure, or the socket gone; 0 while sends can go. */
static int32_t refusal(const nucx_frames *s) {
    return s->broken != 0 ? s->broken : s->fd < 0 ? (int32_t) UCS_ERR_CONNECTION_RESET : 0;
}

/* Bytes of a slot's message: count bytes of the slot, or the entries of its I/O vector when iov is set. */
static uint64_t slot_message_bytes(nucx_conn *conn, int slot, size_t count, int iov) {
    if (!iov) {
        return count;
    }
    const ucp_dt_iov_t *entries = nucx_send_iov(conn, slot);
    uint64_t length = 0;
    for (size_t i = 0; i < count; i++) {
        length += entries[i].length;
    }
    return length;
}

/*
 * Queues a slot's message (count bytes of the slot, or count entries of its I/O vector when iov is
 * set), followed by file's bytes when file.fd >= 0, and writes what it can. The queue owns file.fd
 * from here on, also when it refuses the message. Returns 0 when it went out at once, 1 while
 * queued, or a status.
 */
static jint queue_slot(nucx_conn *conn, int slot, size_t count, int iov, file_part file) {
    nucx_frames *s = conn->frames;
    uint64_t length = slot_message_bytes(conn, slot, count, iov) + file.length;
    int32_t refused = refusal(s);
    if (refused == 0 && length > (uint64_t) conn->send_slot_bytes) {
        refused = UCS_ERR_MESSAGE_TRUNCATED;
    }
    write_item *item =
        refused == 0 ? push_item(s, iov ? ITEM_SLOT_IOV : ITEM_SLOT, FRAME_DATA, (uint32_t) length) : NULL;
    if (item == NULL) {
        if (file.fd >= 0) {
            close(file.fd);
        }
        return refused != 0 ? refused : (jint) UCS_ERR_NO_RESOURCE;
    }
    item->slot = slot;
    item->iov_count = iov ? (int) count : 0;
    item->file = file;
    nucx_send_state(conn)[slot] = NUCX_SEND_BUSY;
    conn->outstanding++;
    conn->sent++;
    write_soon(conn);
    int32_t state = nucx_send_state(conn)[slot];
    return state == NUCX_SEND_BUSY ? 1 : state == NUCX_SEND_FREE ? 0 : (jint) state;
}

/* The path's send: queues a slot's message (as queue_slot) and writes what it can. */
static jint frame_send(nucx_conn *conn, int slot, void *data, size_t count, int iov, uint32_t seq) {
    (void) data; (void) seq; /* the slot and its I/O vector say what goes out, the order sets the sequence */
    file_part none = {.fd = -1};
    return queue_slot(conn, slot, count, iov, none);
}

static jint queue_inline(nucx_conn *conn, uint32_t frame_type, const void *body, uint32_t length) {
    nucx_frames *s = conn->frames;
    if (refusal(s) != 0) {
        return refusal(s);
    }
    write_item *item = push_item(s, ITEM_INLINE, frame_type, length);
    if (item == NULL) {
        return (jint) UCS_ERR_NO_RESOURCE;
    }
    memcpy(item->inline_bytes + FRAME_WORD_BYTES, body, length);
    conn->outstanding++;
    return 0;
}

/* ---- receive ---- */

static void read_frames(nucx_conn *conn);

/* The path's receive: the slot takes the next data frame in sequence that finds it posted. */
static void frame_post_recv(nucx_conn *conn, int slot, uint32_t seq, char *buffer, ucp_mem_h memh) {
    (void) seq; (void) memh;
    nucx_frames *s = conn->frames;
    conn->recv_bufs[slot] = buffer;
    nucx_recv_state(conn)[slot] = NUCX_RECV_POSTED;
    if (s->paused && (uint32_t) slot == s->rx_seq % (uint32_t) conn->recv_slots) {
        s->paused = 0;
        read_frames(conn);
    }
}

static void side_input_ready(nucx_conn *conn) {
    if (!conn->closing) {
        conn->state[NUCX_STATE_SIDE_INPUT] = 1;
        nucx_conn_notify(conn);
    }
}

/* The peer sends nothing more: for a live connection Java learns it as the side channel's end. */
static void reached_eof(nucx_conn *conn) {
    nucx_frames *s = conn->frames;
    s->eof = 1;
    s->frame_left = 0;
    if (conn->closing) {
        nucx_conn_peer_ended(conn);
    } else {
        side_input_ready(conn);
    }
}

static void protocol_error(nucx_conn *conn) {
    if (!conn->closing) {
        nucx_conn_fail(conn, NUCX_ERR_BAD_FRAME);
    }
    reached_eof(conn);
}

/*
 * Decides where the frame that starts now goes; returns 1, 0 on a protocol error, or 2 when its
 * slot is not reposted yet.
 */
static int start_frame(nucx_conn *conn, uint32_t word) {
    nucx_frames *s = conn->frames;
    s->frame_type = word >> FRAME_TYPE_SHIFT;
    s->frame_length = word & FRAME_LENGTH_MASK;
    s->frame_left = s->frame_length;
    s->frame_dest = (char *) s->small_frame;
    switch (s->frame_type) {
    case FRAME_DATA: {
        if (s->frame_length < NUCX_HEADER_BYTES || s->frame_length > (uint32_t) conn->recv_slot_bytes) {
            return 0;
        }
        if (conn->closing) {
            s->frame_dest = NULL;
            return 1;
        }
        int slot = (int) (s->rx_seq % (uint32_t) conn->recv_slots);
        if (nucx_recv_state(conn)[slot] != NUCX_RECV_POSTED) {
            s->paused = 1;
            return 2;
        }
        s->frame_slot = slot;
        s->frame_dest = conn->recv_bufs[slot];
        return 1;
    }
    case FRAME_RECORD:
        return s->frame_length == NUCX_RECORD_BYTES;
    default:
        return 0;
    }
}

static int finish_frame(nucx_conn *conn) {
    nucx_frames *s = conn->frames;
    if (conn->closing) {
        return 1;
    }
    switch (s->frame_type) {
    case FRAME_DATA:
        s->rx_seq++;
        s->last_data_length = s->frame_length;
        nucx_conn_recv_done(conn, s->frame_slot, UCS_OK, s->frame_length);
        return 1;
    default:
        if (s->records_length + NUCX_RECORD_BYTES > RECORD_INBOX_BYTES) {
            return 0;
        }
        memcpy(s->records + s->records_length, s->small_frame, NUCX_RECORD_BYTES);
        s->records_length += NUCX_RECORD_BYTES;
        side_input_ready(conn);
        return 1;
    }
}

/* Reads into iov; returns the bytes read, 0 at the peer's end (or a read error), -1 when none are there. */
static ssize_t read_some(nucx_conn *conn, struct iovec *iov, int count) {
    for (;;) {
        ssize_t n = readv(conn->frames->fd, iov, count);
        if (n > 0) {
            return n;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return -1;
        }
        if (n < 0) {
            conn->frames->end_errno = errno;
        }
        reached_eof(conn);
        return 0;
    }
}

/* Refills the read buffer after what is left in it; returns as read_some does, with a short read as -1 too. */
static ssize_t fill_rx(nucx_conn *conn, int *drained) {
    nucx_frames *s = conn->frames;
    uint32_t left = s->rx_end - s->rx_start;
    memmove(s->rx, s->rx + s->rx_start, left);
    s->rx_start = 0;
    s->rx_end = left;
    size_t room = s->rx_capacity - left;
    struct iovec iov = {.iov_base = s->rx + left, .iov_len = room};
    ssize_t n = read_some(conn, &iov, 1);
    if (n > 0) {
        s->rx_end += (uint32_t) n;
        *drained = (size_t) n < room;
    }
    return n;
}

/*
 * Reads the rest of a large frame straight into its slot, and with it the next frame's word only:
 * a stream of large frames then goes into the slots without a copy, one read each. (Reading ahead
 * into the buffer would take most of the next frame there, to be copied.)
 */
static ssize_t read_direct(nucx_conn *conn, int *drained) {
    nucx_frames *s = conn->frames;
    s->rx_start = s->rx_end = 0;
    struct iovec iov[2] = {
        {.iov_base = s->frame_dest + (s->frame_length - s->frame_left), .iov_len = s->frame_left},
        {.iov_base = s->rx, .iov_len = FRAME_WORD_BYTES},
    };
    ssize_t n = read_some(conn, iov, 2);
    if (n > 0) {
        *drained = (size_t) n < (size_t) s->frame_left + FRAME_WORD_BYTES;
        if ((size_t) n > s->frame_left) {
            s->rx_end = (uint32_t) ((size_t) n - s->frame_left);
            s->frame_left = 0;
        } else {
            s->frame_left -= (uint32_t) n;
        }
    }
    return n;
}

/*
 * Makes the read buffer hold, in stream order, its first keep bytes, then moved_bytes from a slot, then
 * tail_bytes (at most a frame word) that were at tail_from in it.
 */
static void refill_rx(nucx_frames *s, size_t keep, const char *moved, size_t moved_bytes, size_t tail_from,
                      size_t tail_bytes) {
    char tail[FRAME_WORD_BYTES];
    memcpy(tail, s->rx + tail_from, tail_bytes);
    memcpy(s->rx + keep, moved, moved_bytes);
    memcpy(s->rx + keep + moved_bytes, tail, tail_bytes);
    s->rx_start = 0;
    s->rx_end = (uint32_t) (keep + moved_bytes + tail_bytes);
}

/*
 * At a frame boundary with nothing buffered, after large data frames: reads the frame word, then as
 * many bytes as the last data frame had straight into the next slot, then the word after them. While
 * frames keep their size (a stream of large writes) each one comes in with one read and no copy, also
 * when the socket held whole frames only, where read_direct's look-ahead found no next word. Bytes that
 * are not the frame's (a record, or frames shorter than the guess) go back into the read buffer; a
 * longer frame is finished by read_direct.
 */
static ssize_t read_at_boundary(nucx_conn *conn, char *slot_bytes, size_t guess, int *drained) {
    nucx_frames *s = conn->frames;
    struct iovec iov[3] = {
        {.iov_base = s->rx, .iov_len = FRAME_WORD_BYTES},
        {.iov_base = slot_bytes, .iov_len = guess},
        {.iov_base = s->rx + FRAME_WORD_BYTES, .iov_len = FRAME_WORD_BYTES},
    };
    ssize_t n = read_some(conn, iov, 3);
    if (n <= 0) {
        return n;
    }
    *drained = (size_t) n < guess + 2 * FRAME_WORD_BYTES;
    size_t past_word = (size_t) n > FRAME_WORD_BYTES ? (size_t) n - FRAME_WORD_BYTES : 0;
    size_t in_slot = past_word < guess ? past_word : guess;
    size_t after = past_word - in_slot;
    uint32_t word;
    memcpy(&word, s->rx, sizeof(word));
    word = ntohl(word);
    if (past_word == 0 || word >> FRAME_TYPE_SHIFT != FRAME_DATA || start_frame(conn, word) != 1) {
        /* Parsed again from the read buffer, which also reports a bad frame as such. */
        s->frame_left = 0;
        size_t word_bytes = (size_t) n - past_word;
        refill_rx(s, word_bytes, slot_bytes, in_slot, FRAME_WORD_BYTES, after);
        return n;
    }
    size_t own = in_slot < s->frame_length ? in_slot : s->frame_length;
    s->frame_left -= (uint32_t) own;
    size_t own_after = after < s->frame_left ? after : s->frame_left;
    memcpy(slot_bytes + own, s->rx + FRAME_WORD_BYTES, own_after);
    s->frame_left -= (uint32_t) own_after;
    refill_rx(s, 0, slot_bytes + own, in_slot - own, FRAME_WORD_BYTES + own_after, after - own_after);
    if (s->frame_left == 0) {
        finish_frame(conn);
    }
    return n;
}

/* Moves bytes of the current frame to where they go, from the read buffer or straight from the socket. */
static ssize_t take_frame_bytes(nucx_conn *conn, int *drained) {
    nucx_frames *s = conn->frames;
    uint32_t buffered = s->rx_end - s->rx_start;
    if (buffered == 0 && *drained && !s->hung_up) {
        return -1;
    }
    if (buffered == 0 && s->frame_dest != NULL && s->frame_left >= DIRECT_READ_MIN_BYTES) {
        return read_direct(conn, drained);
    }
    if (buffered == 0) {
        return fill_rx(conn, drained);
    }
    uint32_t n = buffered < s->frame_left ? buffered : s->frame_left;
    if (s->frame_dest != NULL) {
        memcpy(s->frame_dest + (s->frame_length - s->frame_left), s->rx + s->rx_start, n);
    }
    s->rx_start += n;
    s->frame_left -= n;
    return n;
}

/* Reads when fewer bytes than a frame word are buffered: into the next slot after large frames. */
static ssize_t read_more(nucx_conn *conn, int *drained) {
    nucx_frames *s = conn->frames;
    int slot = (int) (s->rx_seq % (uint32_t) conn->recv_slots);
    if (s->rx_end > s->rx_start || conn->closing || s->last_data_length < DIRECT_READ_MIN_BYTES
        || nucx_recv_state(conn)[slot] != NUCX_RECV_POSTED) {
        return fill_rx(conn, drained);
    }
    size_t room = s->rx_capacity - 2 * FRAME_WORD_BYTES;
    size_t guess = s->last_data_length < room ? s->last_data_length : room;
    return read_at_boundary(conn, conn->recv_bufs[slot], guess, drained);
}

/*
 * Reads and delivers whole frames until the socket has nothing more, or the next frame's slot is
 * not reposted yet. A short read counts as having drained the socket (bytes that come later make a
 * new edge), unless epoll saw the peer hang up: its end of stream may have come with the data, and
 * that edge is gone, so reading goes on to it.
 */
static void read_frames(nucx_conn *conn) {
    nucx_frames *s = conn->frames;
    int drained = 0;
    while (!s->eof) {
        if (s->frame_left > 0) {
            if (take_frame_bytes(conn, &drained) <= 0) {
                break;
            }
            if (s->frame_left == 0 && !finish_frame(conn)) {
                protocol_error(conn);
            }
            continue;
        }
        if (s->rx_end - s->rx_start >= FRAME_WORD_BYTES) {
            uint32_t word;
            memcpy(&word, s->rx + s->rx_start, sizeof(word));
            int started = start_frame(conn, ntohl(word));
            if (started == 2) {
                s->frame_left = 0;
                break;
            }
            s->rx_start += FRAME_WORD_BYTES;
            if (!started) {
                protocol_error(conn);
            } else if (s->frame_left == 0 && !finish_frame(conn)) {
                protocol_error(conn);
            }
            continue;
        }
        if ((drained && !s->hung_up) || read_more(conn, &drained) <= 0) {
            break;
        }
    }
    update_watch(conn);
}

/* ---- the worker's side ---- */

/* A paused reader's socket failed or hung up: the frames it keeps will never be read, the peer is gone. */
static void failed_while_paused(nucx_conn *conn, uint32_t events) {
    int error = 0;
    socklen_t length = sizeof(error);
    getsockopt(conn->frames->fd, SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0 || (events & EPOLLHUP)) {
        conn->frames->end_errno = error;
        reached_eof(conn);
        update_watch(conn);
    }
}

/* Serves the connections whose sockets are ready; called with each progress of the worker. */
int nucx_frame_path_service(nucx_worker *w) {
    write_deferred(w);
    struct epoll_event events[64];
    int n = epoll_wait(w->frame_epoll_fd, events, NUCX_ARRAY_LEN(events), 0);
    for (int i = 0; i < n; i++) {
        nucx_conn *conn = events[i].data.ptr;
        uint32_t ready = events[i].events;
        if (ready & (EPOLLRDHUP | EPOLLHUP)) {
            conn->frames->hung_up = 1;
        }
        if (ready & (EPOLLOUT | EPOLLERR)) {
            conn->frames->write_blocked = 0;
            write_queue(conn);
        }
        if (conn->frames->paused && (ready & (EPOLLERR | EPOLLHUP))) {
            failed_while_paused(conn, ready);
        } else if (ready & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
            read_frames(conn);
        }
    }
    return n > 0 ? n : 0;
}

/*
 * The channel closed. With the socket (side_fd >= 0), what is queued is still written (the close
 * record last) and the peer's frames are read and dropped until its end, as the UCX path lingers;
 * without it (the loop is going away and Java closes the socket) everything stops at once.
 */
static void frame_close(nucx_conn *conn, int side_fd, int force) {
    nucx_frames *s = conn->frames;
    if (side_fd >= 0 && !force) {
        write_now(conn);
    } else {
        forget_deferred(conn);
    }
    s->frame_dest = s->frame_left > 0 ? NULL : s->frame_dest;
    s->paused = 0;
    if (side_fd < 0 || force) {
        drop_queue(conn, UCS_ERR_CANCELED);
        s->stopped = 1;
        if (side_fd < 0) {
            update_watch(conn);
            s->fd = -1;
        }
    }
    if (s->stopped || s->eof) {
        nucx_conn_peer_done(conn);
    } else {
        /* A paused reader left frames in the socket, and their edge is gone: drop them now. */
        read_frames(conn);
    }
    update_watch(conn);
}

/* True once everything queued was written (or dropped): the socket's write half can be shut. */
static int frame_drained(const nucx_conn *conn) {
    return conn->frames->item_count == 0;
}

/* The linger deadline passed: what the peer did not take is given up on. */
static void frame_linger_expired(nucx_conn *conn) {
    drop_queue(conn, UCS_ERR_CANCELED);
    conn->frames->stopped = 1;
    update_watch(conn);
}

/* Frees the path's own memory (NULL is fine); the one place it is freed. */
static void frames_release(nucx_frames *s) {
    if (s != NULL) {
        free(s->items);
        free(s->rx);
        free(s);
    }
}

/* Frees the path's state of a connection about to be freed (nucx_conn_free). */
static void frame_free(nucx_conn *conn) {
    nucx_frames *s = conn->frames;
    forget_deferred(conn);
    drop_queue(conn, UCS_ERR_CANCELED);
    s->stopped = 1;
    update_watch(conn);
    conn->worker->frame_conns--;
    frames_release(s);
    conn->frames = NULL;
}

static const nucx_path_ops frame_path = {
    .about = "TCP data path: the bytes travel on the connection's TCP socket, "
             "not through a UCX endpoint (UCX could reach the peer only over TCP, "
             "or the peers do not both trust each other)",
    .sends_credits = 0, /* TCP's flow control stands in for credits */
    .send = frame_send,
    .post_recv = frame_post_recv,
    .close = frame_close,
    .drained = frame_drained,
    .linger_expired = frame_linger_expired,
    .free = frame_free,
};

/* ---- Java ---- */

static nucx_frames *frames_alloc(const nucx_conn *conn, uint32_t input_length) {
    nucx_frames *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return NULL;
    }
    s->item_capacity = conn->send_slots + EXTRA_ITEMS;
    s->items = calloc((size_t) s->item_capacity, sizeof(write_item));
    s->rx_capacity = input_length > RX_BUFFER_BYTES ? input_length : RX_BUFFER_BYTES;
    s->rx = malloc(s->rx_capacity);
    if (s->items == NULL || s->rx == NULL) {
        frames_release(s);
        return NULL;
    }
    return s;
}

/*
 * Moves a connection to the frame path once both hellos chose the TCP data path; its path changes
 * here, once, and never again. fd stays Java's until the channel closes; input is what Java read
 * after the peer's hello, output what of our hello it could not write yet. Every receive slot posted
 * stays posted, now for frames: UCX cannot have matched any of them, since the peer chose this path too
 * and never sends through UCX, so their UCX receives are withdrawn. A parked connection has none posted:
 * Java posts them next (UcxReceiveWindow.unparkForGood).
 */
static void java_conn_frame_start(JNIEnv *env, jclass cls, jlong conn_ptr, jint fd, jlong input, jint input_length,
                                   jlong output, jint output_length) {
    (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    if (conn->frames != NULL || input_length < 0 || output_length < 0) {
        nucx_throw_io(env, "TCP data path", "already started, or bad arguments");
        return;
    }
    nucx_frames *s = frames_alloc(conn, (uint32_t) input_length);
    char *unsent = output_length > 0 ? malloc((size_t) output_length) : NULL;
    if (s == NULL || (output_length > 0 && unsent == NULL)) {
        free(unsent);
        frames_release(s);
        nucx_throw_io(env, "TCP data path", "out of memory");
        return;
    }
    s->fd = fd;
    memcpy(s->rx, (const void *) (intptr_t) input, (size_t) input_length);
    s->rx_end = (uint32_t) input_length;
    conn->frames = s;
    conn->path = &frame_path;
    conn->worker->frame_conns++;
    nucx_conn_cancel_data_receives(conn);
    for (int i = 0; i < conn->recv_slots; i++) {
        if (nucx_recv_state(conn)[i] == NUCX_RECV_POSTED) {
            frame_post_recv(conn, i, 0, conn->recv_bufs[i], NULL);
        }
    }
    conn->state[NUCX_STATE_WIRED_UP] = 1;
    if (unsent != NULL) {
        memcpy(unsent, (const void *) (intptr_t) output, (size_t) output_length);
        write_item *item = push_item(s, ITEM_RAW, FRAME_DATA, 0);
        item->raw = unsent;
        item->length = (uint32_t) output_length;
        conn->outstanding++;
        write_queue(conn);
    }
    read_frames(conn);
}

/*
 * Sends a slot's message as java_conn_send (iov_count 0: length bytes after the header) or
 * java_conn_send_iov (iov_count entries) lay it out, followed by count bytes of a DefaultFileRegion's
 * file from position, which sendfile sends when their turn comes. Returns like those, or
 * NUCX_SEND_FILE_DECLINED with nothing queued when the bytes cannot come from the file: Java then
 * copies them into the slot.
 */
static jint java_conn_frame_send_file(JNIEnv *env, jclass cls, jlong conn_ptr, jint slot, jint length, jint iov_count,
                                       jint credits, jobject region, jlong position, jint count) {
    (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    if (conn->frames == NULL || slot < 0 || slot >= conn->send_slots || length < 0 || count <= 0 ||
        (iov_count != 0 && (iov_count < 2 || iov_count > NUCX_MAX_IOV))) {
        return (jint) UCS_ERR_INVALID_PARAM;
    }
    if (refusal(conn->frames) != 0) {
        return refusal(conn->frames);
    }
    file_part file = {.fd = nucx_file_region_fd(env, region, position, (uint32_t) count),
                      .length = (uint32_t) count,
                      .offset = position};
    if (file.fd < 0) {
        return NUCX_SEND_FILE_DECLINED;
    }
    char *header = nucx_send_slot(conn, slot);
    memcpy(header, &credits, sizeof(credits));
    if (iov_count == 0) {
        return queue_slot(conn, slot, (size_t) length + NUCX_HEADER_BYTES, 0, file);
    }
    ucp_dt_iov_t *iov = nucx_send_iov(conn, slot);
    iov[0].buffer = header;
    iov[0].length = NUCX_HEADER_BYTES;
    return queue_slot(conn, slot, (size_t) iov_count, 1, file);
}

/* Queues a side-channel record (type, then the messages sent before it, big endian) after the data. */
static jint java_conn_frame_record(JNIEnv *env, jclass cls, jlong conn_ptr, jbyte type, jint messages) {
    (void) env; (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    uint8_t record[NUCX_RECORD_BYTES];
    uint32_t count = htonl((uint32_t) messages);
    record[0] = (uint8_t) type;
    memcpy(record + 1, &count, sizeof(count));
    jint rc = queue_inline(conn, FRAME_RECORD, record, NUCX_RECORD_BYTES);
    if (rc == 0) {
        /* At once, with any deferred messages before it: the channel may be closing. */
        write_now(conn);
    }
    return rc;
}

/*
 * Copies the records that arrived (up to capacity bytes) to address and returns their length, or
 * -1 when none is left and the peer's stream has ended: Java reads them as side-channel input.
 */
static jint java_conn_frame_take_records(JNIEnv *env, jclass cls, jlong conn_ptr, jlong address, jint capacity) {
    (void) env; (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    nucx_frames *s = conn->frames;
    conn->state[NUCX_STATE_SIDE_INPUT] = 0;
    if (s->records_length == 0) {
        return s->eof ? -1 : 0;
    }
    int n = s->records_length < capacity ? s->records_length : capacity;
    memcpy((void *) (intptr_t) address, s->records, (size_t) n);
    s->records_length -= n;
    memmove(s->records, s->records + n, (size_t) s->records_length);
    if (s->records_length > 0 || s->eof) {
        conn->state[NUCX_STATE_SIDE_INPUT] = 1;
    }
    return n;
}

/* Reads what the socket holds now, for a loop that has not served its sockets for a while. */
static void java_conn_frame_read(JNIEnv *env, jclass cls, jlong conn_ptr) {
    (void) env; (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    if (conn->frames != NULL && !conn->closing) {
        read_frames(conn);
    }
}

/*
 * Writes what a burst deferred, now: Java calls it when it runs out of send slots, so that a channel
 * turns unwritable only when the socket itself is full, as with Netty's epoll transport.
 */
static void java_conn_frame_flush(JNIEnv *env, jclass cls, jlong conn_ptr) {
    (void) env; (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    if (conn->frames != NULL && !conn->closing) {
        write_now(conn);
    }
}

/* What ended the peer's stream when it was a socket error (strerror), or null for an orderly end. */
static jstring java_conn_frame_end_error(JNIEnv *env, jclass cls, jlong conn_ptr) {
    (void) cls;
    nucx_conn *conn = (nucx_conn *) (intptr_t) conn_ptr;
    if (conn->frames == NULL || conn->frames->end_errno == 0) {
        return NULL;
    }
    char buf[256];
    /* GNU strerror_r may return a static string instead of filling buf. */
    return (*env)->NewStringUTF(env, strerror_r(conn->frames->end_errno, buf, sizeof(buf)));
}

static const JNINativeMethod methods[] = {
    {"connStreamStart", "(JIJIJI)V", (void *) java_conn_frame_start},
    {"connStreamRecord", "(JBI)I", (void *) java_conn_frame_record},
    {"connStreamTakeRecords", "(JJI)I", (void *) java_conn_frame_take_records},
    {"connStreamRead", "(J)V", (void *) java_conn_frame_read},
    {"connStreamFlush", "(J)V", (void *) java_conn_frame_flush},
    {"connStreamEndError", "(J)Ljava/lang/String;", (void *) java_conn_frame_end_error},
    {"connStreamSendFile", "(JIIIILio/netty/channel/DefaultFileRegion;JI)I", (void *) java_conn_frame_send_file},
};

int nucx_register_frame_path(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
