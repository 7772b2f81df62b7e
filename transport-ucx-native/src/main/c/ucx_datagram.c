/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The UDP sockets of UcxDatagramChannel: UCX has no datagrams, so these are plain non-blocking sockets in
 * the event loop's epoll set. Each function wraps one system call; the channel keeps the state.
 *
 * Addresses cross JNI as in ucx_socket.c: a byte[] ip (4 or 16 bytes) and the port; IPv6 adds its scope id.
 * An IPv6 socket is dual-stack: IPv4 addresses are mapped to ::ffff:a.b.c.d on the way in and back on the
 * way out, so Java only ever sees what it passed. A sender is written into a byte[] the channel keeps
 * (enum nucx_sender_byte), not returned as a new array: nothing is allocated per datagram here.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ucx_datagram.h"
#include "ucx_errors.h"

static jint datagram_socket(int family) {
    return socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

/* An IPv6 datagram socket, or an IPv4 one; IPv6 ones also carry IPv4 (IPV6_V6ONLY off), like Netty's epoll. */
static jint java_datagram_socket(JNIEnv *env, jclass cls, jboolean ipv6) {
    (void) cls;
    int fd = datagram_socket(ipv6 ? AF_INET6 : AF_INET);
    if (fd < 0) {
        nucx_throw_errno(env, "socket(SOCK_DGRAM)", errno);
        return -1;
    }
    if (ipv6) {
        int zero = 0;
        if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)) != 0) {
            int err = errno;
            close(fd);
            nucx_throw_errno(env, "setsockopt(IPV6_V6ONLY)", err);
            return -1;
        }
    }
    return fd;
}

/* Whether this host can create IPv6 sockets at all (a kernel without IPv6 says EAFNOSUPPORT). */
static jboolean java_datagram_ipv6_supported(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    int fd = datagram_socket(AF_INET6);
    if (fd < 0) {
        return JNI_FALSE;
    }
    close(fd);
    return JNI_TRUE;
}

/*
 * Fills storage from ip (4 or 16 bytes), scope id and port, for a socket of the given family: an IPv4
 * address for an IPv6 socket becomes ::ffff:a.b.c.d, and 0.0.0.0 becomes ::, as binding expects.
 */
static int to_sockaddr(JNIEnv *env, jboolean ipv6, jbyteArray ip, jint scope_id, jint port,
                       struct sockaddr_storage *storage, socklen_t *length) {
    jsize n = (*env)->GetArrayLength(env, ip);
    jbyte bytes[16];
    if (n != 4 && n != 16) {
        nucx_throw_io(env, "datagram address", "not an IPv4 or IPv6 address");
        return -1;
    }
    (*env)->GetByteArrayRegion(env, ip, 0, n, bytes);
    memset(storage, 0, sizeof(*storage));
    if (!ipv6) {
        if (n != 4) {
            nucx_throw_io(env, "datagram address",
                          "an IPv6 address for an IPv4 socket (create the channel with SocketProtocolFamily.INET6)");
            return -1;
        }
        struct sockaddr_in *in = (struct sockaddr_in *) storage;
        in->sin_family = AF_INET;
        in->sin_port = htons((uint16_t) port);
        memcpy(&in->sin_addr, bytes, 4);
        *length = sizeof(*in);
        return 0;
    }
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) storage;
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons((uint16_t) port);
    if (n == 16) {
        memcpy(&in6->sin6_addr, bytes, 16);
        in6->sin6_scope_id = (uint32_t) scope_id;
    } else if (bytes[0] != 0 || bytes[1] != 0 || bytes[2] != 0 || bytes[3] != 0) {
        in6->sin6_addr.s6_addr[10] = 0xff;
        in6->sin6_addr.s6_addr[11] = 0xff;
        memcpy(&in6->sin6_addr.s6_addr[12], bytes, 4);
    }
    *length = sizeof(*in6);
    return 0;
}

/* Writes a sockaddr into the channel's sender array (enum nucx_sender_byte); IPv4-mapped becomes IPv4. */
static void to_sender(JNIEnv *env, const struct sockaddr_storage *storage, jbyteArray sender) {
    jbyte out[NUCX_SENDER_BYTES];
    uint16_t port;
    uint32_t scope = 0;
    memset(out, 0, sizeof(out));
    if (storage->ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) storage;
        port = ntohs(in6->sin6_port);
        if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
            memcpy(out + NUCX_SENDER_IP, &in6->sin6_addr.s6_addr[12], 4);
            out[NUCX_SENDER_IP_LENGTH] = 4;
        } else {
            memcpy(out + NUCX_SENDER_IP, &in6->sin6_addr, 16);
            out[NUCX_SENDER_IP_LENGTH] = 16;
            scope = in6->sin6_scope_id;
        }
    } else {
        const struct sockaddr_in *in = (const struct sockaddr_in *) storage;
        port = ntohs(in->sin_port);
        memcpy(out + NUCX_SENDER_IP, &in->sin_addr, 4);
        out[NUCX_SENDER_IP_LENGTH] = 4;
    }
    out[NUCX_SENDER_PORT] = (jbyte) (port >> 8);
    out[NUCX_SENDER_PORT + 1] = (jbyte) port;
    for (int i = 0; i < 4; i++) {
        out[NUCX_SENDER_SCOPE_ID + i] = (jbyte) (scope >> (24 - 8 * i));
    }
    (*env)->SetByteArrayRegion(env, sender, 0, NUCX_SENDER_BYTES, out);
}

/*
 * A UDP socket reports an ICMP error (port unreachable and the like) only when it is connected, on its next
 * call; the channel turns ECONNREFUSED into a PortUnreachableException, as Netty's epoll and NIO do.
 */
static void throw_datagram_errno(JNIEnv *env, const char *what, int err) {
    if (err == ECONNREFUSED) {
        nucx_throw_port_unreachable(env, what);
    } else {
        nucx_throw_errno(env, what, err);
    }
}

static void java_datagram_bind(JNIEnv *env, jclass cls, jint fd, jboolean ipv6, jbyteArray ip, jint scope_id,
                               jint port) {
    (void) cls;
    struct sockaddr_storage storage;
    socklen_t length;
    if (to_sockaddr(env, ipv6, ip, scope_id, port, &storage, &length) != 0) {
        return;
    }
    if (bind(fd, (struct sockaddr *) &storage, length) != 0) {
        nucx_throw_errno(env, "bind", errno);
    }
}

/* A datagram connect only sets the default peer: it completes at once. */
static void java_datagram_connect(JNIEnv *env, jclass cls, jint fd, jboolean ipv6, jbyteArray ip, jint scope_id,
                                  jint port) {
    (void) cls;
    struct sockaddr_storage storage;
    socklen_t length;
    if (to_sockaddr(env, ipv6, ip, scope_id, port, &storage, &length) != 0) {
        return;
    }
    if (connect(fd, (struct sockaddr *) &storage, length) != 0) {
        nucx_throw_connect(env, errno);
    }
}

/*
 * connect(2) to AF_UNSPEC dissolves the association; the local address stays bound. Some kernels report
 * EAFNOSUPPORT although they did disconnect (as the JDK notes), so that one is not an error.
 */
static void java_datagram_disconnect(JNIEnv *env, jclass cls, jint fd) {
    (void) cls;
    struct sockaddr_storage storage;
    memset(&storage, 0, sizeof(storage));
    storage.ss_family = AF_UNSPEC;
    if (connect(fd, (struct sockaddr *) &storage, sizeof(storage)) != 0 && errno != EAFNOSUPPORT) {
        nucx_throw_errno(env, "disconnect", errno);
    }
}

/* Sends to the connected peer; returns the bytes sent, or -1 when the socket buffer is full. */
static jint java_datagram_send(JNIEnv *env, jclass cls, jint fd, jlong address, jint length) {
    (void) cls;
    ssize_t n = send(fd, (const void *) (intptr_t) address, (size_t) length, MSG_NOSIGNAL);
    if (n >= 0) {
        return (jint) n;
    }
    if (nucx_would_block(errno)) {
        return -1;
    }
    throw_datagram_errno(env, "send", errno);
    return -1;
}

/* Sends to the given address; returns the bytes sent, or -1 when the socket buffer is full. */
static jint java_datagram_send_to(JNIEnv *env, jclass cls, jint fd, jlong address, jint length, jboolean ipv6,
                                  jbyteArray ip, jint scope_id, jint port) {
    (void) cls;
    struct sockaddr_storage storage;
    socklen_t addr_length;
    if (to_sockaddr(env, ipv6, ip, scope_id, port, &storage, &addr_length) != 0) {
        return -1;
    }
    ssize_t n = sendto(fd, (const void *) (intptr_t) address, (size_t) length, MSG_NOSIGNAL,
                       (struct sockaddr *) &storage, addr_length);
    if (n >= 0) {
        return (jint) n;
    }
    if (nucx_would_block(errno)) {
        return -1;
    }
    throw_datagram_errno(env, "sendto", errno);
    return -1;
}

/*
 * Receives one datagram into [address, address + length): returns its bytes (0 for an empty datagram;
 * a longer one is cut to length, as recvfrom does), or -1 when none is waiting. Its sender goes to sender.
 */
static jint java_datagram_recv_from(JNIEnv *env, jclass cls, jint fd, jlong address, jint length,
                                    jbyteArray sender) {
    (void) cls;
    struct sockaddr_storage storage;
    socklen_t addr_length = sizeof(storage);
    ssize_t n = recvfrom(fd, (void *) (intptr_t) address, (size_t) length, 0, (struct sockaddr *) &storage,
                         &addr_length);
    if (n < 0) {
        if (nucx_would_block(errno)) {
            return -1;
        }
        throw_datagram_errno(env, "recvfrom", errno);
        return -1;
    }
    to_sender(env, &storage, sender);
    return (jint) n;
}

/*
 * Takes the socket's pending error (SO_ERROR, which reading it clears) and throws it; does nothing when there
 * is none. For an error epoll reports while the channel neither reads nor writes.
 */
static void java_datagram_take_error(JNIEnv *env, jclass cls, jint fd) {
    (void) cls;
    int err = 0;
    socklen_t length = sizeof(err);
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &length) != 0) {
        nucx_throw_errno(env, "getsockopt(SO_ERROR)", errno);
    } else if (err != 0) {
        throw_datagram_errno(env, "datagram socket", err);
    }
}

/* An int socket option; level and name are the kernel's values, which UcxNative reads from ucx_constants.c. */
/*
 * The interface outgoing multicast leaves from, by index (0: the routing table decides). An IPv6 socket
 * sets it for both families, since it may send IPv4 multicast too.
 */
static void java_datagram_set_multicast_interface(JNIEnv *env, jclass cls, jint fd, jboolean ipv6, jint index) {
    (void) cls;
    struct ip_mreqn request;
    memset(&request, 0, sizeof(request));
    request.imr_ifindex = index;
    if (setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, &request, sizeof(request)) != 0) {
        nucx_throw_errno(env, "setsockopt(IP_MULTICAST_IF)", errno);
        return;
    }
    if (ipv6 && setsockopt(fd, IPPROTO_IPV6, IPV6_MULTICAST_IF, &index, sizeof(index)) != 0) {
        nucx_throw_errno(env, "setsockopt(IPV6_MULTICAST_IF)", errno);
    }
}

/* A group or source address for the protocol-independent multicast requests (RFC 3678). */
static int to_group_address(JNIEnv *env, jbyteArray ip, struct sockaddr_storage *storage) {
    socklen_t length;
    jsize n = (*env)->GetArrayLength(env, ip);
    return to_sockaddr(env, n == 16 ? JNI_TRUE : JNI_FALSE, ip, 0, 0, storage, &length);
}

/*
 * Joins (join true) or leaves the group on the interface with the given index (0: chosen by the routing
 * table), for every source or, when source is not null, that source only. An IPv4 group is joined at the
 * IPv4 level even on an IPv6 socket, which Linux allows for the IPv4 traffic a dual-stack socket receives.
 */
static void java_datagram_membership(JNIEnv *env, jclass cls, jint fd, jboolean join, jbyteArray group,
                                     jbyteArray source, jint index) {
    (void) cls;
    int level = (*env)->GetArrayLength(env, group) == 16 ? IPPROTO_IPV6 : IPPROTO_IP;
    int rc;
    if (source == NULL) {
        struct group_req request;
        memset(&request, 0, sizeof(request));
        request.gr_interface = (uint32_t) index;
        if (to_group_address(env, group, &request.gr_group) != 0) {
            return;
        }
        rc = setsockopt(fd, level, join ? MCAST_JOIN_GROUP : MCAST_LEAVE_GROUP, &request, sizeof(request));
    } else {
        struct group_source_req request;
        memset(&request, 0, sizeof(request));
        request.gsr_interface = (uint32_t) index;
        if (to_group_address(env, group, &request.gsr_group) != 0 ||
            to_group_address(env, source, &request.gsr_source) != 0) {
            return;
        }
        rc = setsockopt(fd, level, join ? MCAST_JOIN_SOURCE_GROUP : MCAST_LEAVE_SOURCE_GROUP, &request,
                        sizeof(request));
    }
    if (rc != 0) {
        nucx_throw_errno(env, join ? "join multicast group" : "leave multicast group", errno);
    }
}

static const JNINativeMethod methods[] = {
    {"datagramSocket", "(Z)I", (void *) java_datagram_socket},
    {"datagramIpv6Supported", "()Z", (void *) java_datagram_ipv6_supported},
    {"datagramBind", "(IZ[BII)V", (void *) java_datagram_bind},
    {"datagramConnect", "(IZ[BII)V", (void *) java_datagram_connect},
    {"datagramDisconnect", "(I)V", (void *) java_datagram_disconnect},
    {"datagramSend", "(IJI)I", (void *) java_datagram_send},
    {"datagramSendTo", "(IJIZ[BII)I", (void *) java_datagram_send_to},
    {"datagramRecvFrom", "(IJI[B)I", (void *) java_datagram_recv_from},
    {"datagramTakeError", "(I)V", (void *) java_datagram_take_error},
    {"datagramSetMulticastInterface", "(IZI)V", (void *) java_datagram_set_multicast_interface},
    {"datagramMembership", "(IZ[B[BI)V", (void *) java_datagram_membership},
};

int nucx_register_datagram(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
