/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The system calls of a plain TCP connection (a peer that does not speak netty-ucx), which Java drives
 * like Netty's epoll transport drives its sockets: the socket is in the event loop's epoll set, reads go
 * straight into the pipeline's buffers (socketRead, ucx_socket.c), writes gather the outbound buffers
 * with one sendmsg (socketWritev), and a DefaultFileRegion's bytes go from its file with sendfile
 * (socketSendFile); a reset is SO_LINGER 0 before the close (socketResetOnClose). No state lives
 * here: each call is one system call on Java's socket.
 */
#include <errno.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include "ucx_plain.h"
#include "ucx_errors.h"
#include "ucx_file_region.h"

/* The I/O vector layout Java writes (UcxPlainGather) is that of struct iovec. */
_Static_assert(sizeof(struct iovec) == sizeof(ucp_dt_iov_t), "Java lays out iovec entries as ucp_dt_iov_t");

/*
 * Writes count I/O vector entries at iov_address with one sendmsg (MSG_NOSIGNAL: a peer's reset is an
 * error, not a signal). Returns the bytes written, 0 when the socket buffer is full; throws when the
 * peer is gone.
 */
static jlong java_socket_writev(JNIEnv *env, jclass cls, jint fd, jlong iov_address, jint count) {
    (void) cls;
    struct msghdr msg = {.msg_iov = (struct iovec *) (intptr_t) iov_address, .msg_iovlen = (size_t) count};
    ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (n >= 0) {
        return (jlong) n;
    }
    if (nucx_would_block(errno)) {
        return 0;
    }
    nucx_throw_errno(env, "writev", errno);
    return -1;
}

/*
 * Sends count bytes of a DefaultFileRegion's file from position to the socket. Returns the bytes sent,
 * 0 when the socket buffer is full, or NUCX_SEND_FILE_DECLINED when the region's file is out of reach
 * (Java then lets the region write itself); throws when the peer is gone or the file fails.
 */
static jlong java_socket_send_file(JNIEnv *env, jclass cls, jint fd, jobject region, jlong position, jlong count) {
    (void) cls;
    int file_fd = nucx_file_region_open_fd(env, region);
    if (file_fd < 0) {
        return NUCX_SEND_FILE_DECLINED;
    }
    off_t offset = (off_t) position;
    ssize_t n = sendfile(fd, file_fd, &offset, (size_t) count);
    if (n > 0) {
        nucx_file_bytes_sent((uint64_t) n);
        return (jlong) n;
    }
    if (n == 0) {
        nucx_throw_io(env, "sendfile", "the file ended before the region did (it shrank)");
        return -1;
    }
    if (nucx_would_block(errno)) {
        return 0;
    }
    nucx_throw_errno(env, "sendfile", errno);
    return -1;
}

/*
 * What the socket holds after the peer hung up, without taking it: 1 when bytes are waiting, 0 when its
 * end of stream is next, -1 when nothing is there yet; throws the error that ended the connection (a reset).
 */
static jint java_socket_peek(JNIEnv *env, jclass cls, jint fd) {
    (void) cls;
    char byte;
    ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (n >= 0) {
        return (jint) n;
    }
    if (nucx_would_block(errno)) {
        return -1;
    }
    nucx_throw_errno(env, "read", errno);
    return -1;
}

/* SO_LINGER 0: the close that follows resets the connection instead of ending it in order. */
static void java_socket_reset_on_close(JNIEnv *env, jclass cls, jint fd) {
    (void) cls;
    struct linger reset = {.l_onoff = 1, .l_linger = 0};
    if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset)) != 0) {
        nucx_throw_errno(env, "setsockopt(SO_LINGER)", errno);
    }
}

static const JNINativeMethod methods[] = {
    {"socketWritev", "(IJI)J", (void *) java_socket_writev},
    {"socketSendFile", "(ILio/netty/channel/DefaultFileRegion;JJ)J", (void *) java_socket_send_file},
    {"socketResetOnClose", "(I)V", (void *) java_socket_reset_on_close},
    {"socketPeek", "(I)I", (void *) java_socket_peek},
};

int nucx_register_plain(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
