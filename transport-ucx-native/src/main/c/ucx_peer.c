/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Who is at the other end of a TCP connection: the kernel's socket table (sock_diag over netlink)
 * looked up for the peer's socket, the one whose local address is our remote address and whose
 * remote address is our local one. Found, it is a socket of this host and of this network
 * namespace (the table is per namespace), and its owner's uid is the answer. The lookup is exact
 * (no dump of the table), so its cost does not grow with the number of connections.
 *
 * Only a live, full socket answers: one in ESTABLISHED with a non-zero inode. The kernel reports
 * uid 0 and inode 0 for sockets no process holds any more (TIME_WAIT, an orphaned FIN_WAIT2), so a
 * peer that sent its hello and closed at once would otherwise read as root.
 *
 * An owner that is not mapped into our user namespace reads as the overflow uid (65534): any
 * process of another namespace would match a server running as that uid, so that answer is "not
 * proven" too.
 */
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ucx_peer.h"

#define NUCX_PEER_UNKNOWN (-1)

/* /proc/sys/kernel/overflowuid, read when the natives are registered. */
static jint overflow_uid = 65534;

static void read_overflow_uid(void) {
    FILE *file = fopen("/proc/sys/kernel/overflowuid", "re");
    if (file == NULL) {
        return;
    }
    int uid;
    if (fscanf(file, "%d", &uid) == 1) {
        overflow_uid = uid;
    }
    fclose(file);
}

/* An IPv4 peer seen through an IPv6 socket is an AF_INET socket's in the table. */
static void unmap(struct sockaddr_storage *address) {
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) address;
    if (address->ss_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
        return;
    }
    struct sockaddr_in in = {.sin_family = AF_INET, .sin_port = in6->sin6_port};
    memcpy(&in.sin_addr, &in6->sin6_addr.s6_addr[12], 4);
    memset(address, 0, sizeof(*address));
    memcpy(address, &in, sizeof(in));
}

static void put_endpoint(const struct sockaddr_storage *address, __be16 *port, __be32 *ip) {
    if (address->ss_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *) address;
        *port = in->sin_port;
        memcpy(ip, &in->sin_addr, 4);
    } else {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *) address;
        *port = in6->sin6_port;
        memcpy(ip, &in6->sin6_addr, 16);
    }
}

/* The request for the socket at `peer` connected to `local`. */
static void build_request(struct inet_diag_req_v2 *req, const struct sockaddr_storage *local,
                          const struct sockaddr_storage *peer) {
    memset(req, 0, sizeof(*req));
    req->sdiag_family = (__u8) peer->ss_family;
    req->sdiag_protocol = IPPROTO_TCP;
    req->idiag_states = 1u << TCP_ESTABLISHED;
    put_endpoint(peer, &req->id.idiag_sport, req->id.idiag_src);
    put_endpoint(local, &req->id.idiag_dport, req->id.idiag_dst);
    req->id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    req->id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
}

/*
 * Sends the request and reads the answer: the uid, or NUCX_PEER_UNKNOWN when no such socket is here
 * or it is not a live one (see the top of this file).
 */
static jint ask_kernel(int nl, const struct inet_diag_req_v2 *req) {
    struct {
        struct nlmsghdr header;
        struct inet_diag_req_v2 body;
    } message = {
        .header = {.nlmsg_len = sizeof(message), .nlmsg_type = SOCK_DIAG_BY_FAMILY, .nlmsg_flags = NLM_F_REQUEST},
        .body = *req,
    };
    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    if (sendto(nl, &message, sizeof(message), 0, (struct sockaddr *) &kernel, sizeof(kernel)) < 0) {
        return NUCX_PEER_UNKNOWN;
    }
    long answer[2048 / sizeof(long)];
    ssize_t n = recv(nl, answer, sizeof(answer), 0);
    for (struct nlmsghdr *h = (struct nlmsghdr *) answer; n > 0 && NLMSG_OK(h, (size_t) n); h = NLMSG_NEXT(h, n)) {
        if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY && h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
            const struct inet_diag_msg *found = NLMSG_DATA(h);
            if (found->idiag_state != TCP_ESTABLISHED || found->idiag_inode == 0
                || (jint) found->idiag_uid == overflow_uid) {
                return NUCX_PEER_UNKNOWN;
            }
            return (jint) found->idiag_uid;
        }
        if (h->nlmsg_type == NLMSG_ERROR || h->nlmsg_type == NLMSG_DONE) {
            break;
        }
    }
    return NUCX_PEER_UNKNOWN;
}

/*
 * The uid owning the other end of TCP socket `fd`, or -1 when that end is not a socket of this host
 * and network namespace (or the kernel cannot tell).
 */
static jint java_socket_peer_uid(JNIEnv *env, jclass cls, jint fd) {
    (void) env; (void) cls;
    struct sockaddr_storage local, peer;
    socklen_t local_length = sizeof(local), peer_length = sizeof(peer);
    if (getsockname(fd, (struct sockaddr *) &local, &local_length) != 0
        || getpeername(fd, (struct sockaddr *) &peer, &peer_length) != 0) {
        return NUCX_PEER_UNKNOWN;
    }
    unmap(&local);
    unmap(&peer);
    if (local.ss_family != peer.ss_family) {
        return NUCX_PEER_UNKNOWN;
    }
    int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (nl < 0) {
        return NUCX_PEER_UNKNOWN;
    }
    struct timeval patience = {.tv_sec = 1};
    setsockopt(nl, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof(patience));
    struct inet_diag_req_v2 req;
    build_request(&req, &local, &peer);
    jint uid = ask_kernel(nl, &req);
    close(nl);
    return uid;
}

static const JNINativeMethod methods[] = {
    {"socketPeerUid", "(I)I", (void *) java_socket_peer_uid},
};

int nucx_register_peer(JNIEnv *env, jclass cls) {
    read_overflow_uid();
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
