/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The TCP side channel of each connection: it carries the handshake (worker addresses) and the
 * close/shutdown records, and its hang-up is how a dead peer is noticed. Non-blocking sockets
 * only; addresses cross JNI as byte[] {ip (4 or 16 bytes), port (4 bytes, big endian)}.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ucx_socket.h"
#include "ucx_errors.h"

static int to_sockaddr(JNIEnv *env, jbyteArray address, jint port, struct sockaddr_storage *storage,
                       socklen_t *length) {
    jsize n = (*env)->GetArrayLength(env, address);
    memset(storage, 0, sizeof(*storage));
    if (n == 4) {
        struct sockaddr_in *in = (struct sockaddr_in *) storage;
        in->sin_family = AF_INET;
        in->sin_port = htons((uint16_t) port);
        (*env)->GetByteArrayRegion(env, address, 0, 4, (jbyte *) &in->sin_addr);
        *length = sizeof(*in);
        return 0;
    }
    if (n == 16) {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) storage;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t) port);
        (*env)->GetByteArrayRegion(env, address, 0, 16, (jbyte *) &in6->sin6_addr);
        *length = sizeof(*in6);
        return 0;
    }
    nucx_throw_io(env, "socket address", "not an IPv4 or IPv6 address");
    return -1;
}

static jbyteArray from_sockaddr(JNIEnv *env, const struct sockaddr_storage *storage) {
    jbyte buf[20];
    int n;
    uint16_t port;
    if (storage->ss_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *) storage;
        memcpy(buf, &in->sin_addr, 4);
        port = ntohs(in->sin_port);
        n = 4;
    } else if (storage->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) storage;
        memcpy(buf, &in6->sin6_addr, 16);
        port = ntohs(in6->sin6_port);
        n = 16;
    } else {
        return NULL;
    }
    buf[n] = 0;
    buf[n + 1] = 0;
    buf[n + 2] = (jbyte) (port >> 8);
    buf[n + 3] = (jbyte) port;
    jbyteArray result = (*env)->NewByteArray(env, n + 4);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, n + 4, buf);
    }
    return result;
}

static jint java_socket_stream(JNIEnv *env, jclass cls, jboolean ipv6) {
    (void) cls;
    int fd = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        nucx_throw_errno(env, "socket", errno);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return fd;
}

static void java_socket_bind_listen(JNIEnv *env, jclass cls, jint fd, jbyteArray address, jint port,
                                    jint backlog) {
    (void) cls;
    struct sockaddr_storage storage;
    socklen_t length;
    if (to_sockaddr(env, address, port, &storage, &length) != 0) {
        return;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (bind(fd, (struct sockaddr *) &storage, length) != 0) {
        nucx_throw_errno(env, "bind", errno);
        return;
    }
    if (listen(fd, backlog) != 0) {
        nucx_throw_errno(env, "listen", errno);
    }
}

static void java_socket_bind(JNIEnv *env, jclass cls, jint fd, jbyteArray address, jint port) {
    (void) cls;
    struct sockaddr_storage storage;
    socklen_t length;
    if (to_sockaddr(env, address, port, &storage, &length) != 0) {
        return;
    }
    if (bind(fd, (struct sockaddr *) &storage, length) != 0) {
        nucx_throw_errno(env, "bind", errno);
    }
}

/* Returns the accepted fd, or -1 when no connection is pending. */
static jint java_socket_accept(JNIEnv *env, jclass cls, jint fd) {
    (void) cls;
    int child = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (child < 0) {
        if (nucx_would_block(errno) || errno == ECONNABORTED) {
            return -1;
        }
        nucx_throw_errno(env, "accept", errno);
        return -1;
    }
    int one = 1;
    setsockopt(child, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return child;
}

/* Returns true when connected at once, false while the connect is in progress. */
static jboolean java_socket_connect(JNIEnv *env, jclass cls, jint fd, jbyteArray address, jint port) {
    (void) cls;
    struct sockaddr_storage storage;
    socklen_t length;
    if (to_sockaddr(env, address, port, &storage, &length) != 0) {
        return JNI_FALSE;
    }
    if (connect(fd, (struct sockaddr *) &storage, length) == 0) {
        return JNI_TRUE;
    }
    if (errno == EINPROGRESS || errno == EINTR) {
        return JNI_FALSE;
    }
    nucx_throw_connect(env, errno);
    return JNI_FALSE;
}

static jboolean java_socket_finish_connect(JNIEnv *env, jclass cls, jint fd) {
    (void) cls;
    int err = 0;
    socklen_t length = sizeof(err);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &length) != 0) {
        nucx_throw_errno(env, "getsockopt", errno);
        return JNI_FALSE;
    }
    if (err == EINPROGRESS) {
        return JNI_FALSE;
    }
    if (err != 0) {
        nucx_throw_connect(env, err);
        return JNI_FALSE;
    }
    return JNI_TRUE;
}

/* Returns bytes read, 0 when nothing is available, -1 at end of stream; throws on reset. */
static jint java_socket_read(JNIEnv *env, jclass cls, jint fd, jlong address, jint length) {
    (void) cls;
    ssize_t n = read(fd, (void *) (intptr_t) address, (size_t) length);
    if (n > 0) {
        return (jint) n;
    }
    if (n == 0) {
        return -1;
    }
    if (nucx_would_block(errno)) {
        return 0;
    }
    nucx_throw_errno(env, "read", errno);
    return -1;
}

/* Returns bytes written (0 when the socket buffer is full); throws when the peer is gone. */
static jint java_socket_write(JNIEnv *env, jclass cls, jint fd, jlong address, jint length) {
    (void) cls;
    ssize_t n = send(fd, (const void *) (intptr_t) address, (size_t) length, MSG_NOSIGNAL);
    if (n >= 0) {
        return (jint) n;
    }
    if (nucx_would_block(errno)) {
        return 0;
    }
    nucx_throw_errno(env, "write", errno);
    return -1;
}

static void java_socket_shutdown_write(JNIEnv *env, jclass cls, jint fd) {
    (void) env; (void) cls;
    /* ENOTCONN means the peer already closed: nothing left to shut down. */
    shutdown(fd, SHUT_WR);
}

static void java_socket_close(JNIEnv *env, jclass cls, jint fd) {
    (void) cls;
    if (close(fd) != 0 && errno != EINTR) {
        nucx_throw_errno(env, "close", errno);
    }
}

/* getsockname or getpeername, as a Java byte[] address (null when the socket has none). */
static jbyteArray socket_address(JNIEnv *env, int fd, int (*query)(int, struct sockaddr *, socklen_t *)) {
    struct sockaddr_storage storage;
    socklen_t length = sizeof(storage);
    if (query(fd, (struct sockaddr *) &storage, &length) != 0) {
        return NULL;
    }
    return from_sockaddr(env, &storage);
}

static jbyteArray java_socket_local_address(JNIEnv *env, jclass cls, jint fd) {
    (void) cls;
    return socket_address(env, fd, getsockname);
}

static jbyteArray java_socket_remote_address(JNIEnv *env, jclass cls, jint fd) {
    (void) cls;
    return socket_address(env, fd, getpeername);
}

/*
 * Keepalive on the side channel detects a vanished host (not just a dead process) while the socket
 * is idle; the user timeout does the same while data sent on it waits for an acknowledgement (on the
 * TCP data path it carries the data), which keepalive alone would leave to TCP's retransmissions,
 * minutes. A peer that is merely slow still acknowledges (with a zero window), so it is not cut off.
 */
static void java_socket_keepalive(JNIEnv *env, jclass cls, jint fd, jint idle_seconds, jint interval_seconds,
                                  jint probes) {
    (void) env; (void) cls;
    int one = 1;
    unsigned int user_timeout_ms = (unsigned int) (idle_seconds + interval_seconds * probes) * 1000u;
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle_seconds, sizeof(idle_seconds));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval_seconds, sizeof(interval_seconds));
    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof(probes));
    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &user_timeout_ms, sizeof(user_timeout_ms));
}

/* setsockopt of an int option; level and name are the kernel's (UcxNativeConstants hands them to Java). */
static void java_socket_set_option(JNIEnv *env, jclass cls, jint fd, jint level, jint name, jint value) {
    (void) cls;
    if (setsockopt(fd, level, name, &value, sizeof(value)) != 0) {
        nucx_throw_errno(env, "setsockopt", errno);
    }
}

static jint java_socket_get_option(JNIEnv *env, jclass cls, jint fd, jint level, jint name) {
    (void) cls;
    int value = 0;
    socklen_t length = sizeof(value);
    if (getsockopt(fd, level, name, &value, &length) != 0) {
        nucx_throw_errno(env, "getsockopt", errno);
        return -1;
    }
    /* Linux may return some IP options (IP_MULTICAST_TTL, IP_MULTICAST_LOOP) as a single byte. */
    return length == 1 ? (jint) ((unsigned char *) &value)[0] : (jint) value;
}

static const JNINativeMethod methods[] = {
    {"socketStream", "(Z)I", (void *) java_socket_stream},
    {"socketBindListen", "(I[BII)V", (void *) java_socket_bind_listen},
    {"socketBind", "(I[BI)V", (void *) java_socket_bind},
    {"socketAccept", "(I)I", (void *) java_socket_accept},
    {"socketConnect", "(I[BI)Z", (void *) java_socket_connect},
    {"socketFinishConnect", "(I)Z", (void *) java_socket_finish_connect},
    {"socketRead", "(IJI)I", (void *) java_socket_read},
    {"socketWrite", "(IJI)I", (void *) java_socket_write},
    {"socketShutdownWrite", "(I)V", (void *) java_socket_shutdown_write},
    {"socketClose", "(I)V", (void *) java_socket_close},
    {"socketLocalAddress", "(I)[B", (void *) java_socket_local_address},
    {"socketRemoteAddress", "(I)[B", (void *) java_socket_remote_address},
    {"socketKeepAlive", "(IIII)V", (void *) java_socket_keepalive},
    {"socketSetOption", "(IIII)V", (void *) java_socket_set_option},
    {"socketGetOption", "(III)I", (void *) java_socket_get_option},
};

int nucx_register_socket(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
