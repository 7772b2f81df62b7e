/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The values Java shares with this library: words of the memory it reads and writes (ucx_native.h),
 * what some natives return, and the kernel's epoll values. Each is a native method of
 * UcxNativeConstants, read once into a constant of UcxNative when that class is initialised, so the
 * definitions here are the only ones (as Netty's NativeStaticallyReferencedJniMethods). A name
 * missing on either side fails the library's loading or UcxNative's initialisation, never silently.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include "ucx_constants.h"

/* Java method name, value. */
#define NUCX_JAVA_CONSTANTS(X)                         \
    X(recvPosted, NUCX_RECV_POSTED)                    \
    X(recvIdle, NUCX_RECV_IDLE)                        \
    X(sendFree, NUCX_SEND_FREE)                        \
    X(sendBusy, NUCX_SEND_BUSY)                        \
    X(stateNotified, NUCX_STATE_NOTIFIED)              \
    X(stateError, NUCX_STATE_ERROR)                    \
    X(stateCredits, NUCX_STATE_CREDITS)                \
    X(stateWiredUp, NUCX_STATE_WIRED_UP)               \
    X(stateSideInput, NUCX_STATE_SIDE_INPUT)           \
    X(stateHeld, NUCX_STATE_HELD)                      \
    X(stateHeaderWords, NUCX_STATE_HEADER_WORDS)       \
    X(readyCount, NUCX_READY_COUNT)                    \
    X(readyCapacity, NUCX_READY_CAPACITY)              \
    X(readyOverflowed, NUCX_READY_OVERFLOWED)          \
    X(readyHeaderWords, NUCX_READY_HEADER_WORDS)       \
    X(createdConn, NUCX_CREATED_CONN)                  \
    X(createdState, NUCX_CREATED_STATE)                \
    X(createdSendArea, NUCX_CREATED_SEND_AREA)         \
    X(createdId, NUCX_CREATED_ID)                      \
    X(createdSendIovs, NUCX_CREATED_SEND_IOVS)         \
    X(createdTagSecret, NUCX_CREATED_TAG_SECRET)         \
    X(createdMessageKey, NUCX_CREATED_MESSAGE_KEY)       \
    X(createdWords, NUCX_CREATED_WORDS)                \
    X(mapAddress, NUCX_MAP_ADDRESS)                    \
    X(mapMemh, NUCX_MAP_MEMH)                          \
    X(mapStatus, NUCX_MAP_STATUS)                      \
    X(mapWords, NUCX_MAP_WORDS)                        \
    X(eventFd, NUCX_EVENT_FD)                          \
    X(eventEvents, NUCX_EVENT_EVENTS)                  \
    X(eventWords, NUCX_EVENT_WORDS)                    \
    X(headerBytes, NUCX_HEADER_BYTES)                  \
    X(recordBytes, NUCX_RECORD_BYTES)                  \
    X(creditsBusy, NUCX_CREDITS_BUSY)                  \
    X(sendFileDeclined, NUCX_SEND_FILE_DECLINED)       \
    X(maxIov, NUCX_MAX_IOV)                            \
    X(iovEntryBytes, sizeof(ucp_dt_iov_t))             \
    X(iovBufferOffset, offsetof(ucp_dt_iov_t, buffer)) \
    X(iovLengthOffset, offsetof(ucp_dt_iov_t, length)) \
    X(seqMask, NUCX_TAG_SEQ_MASK)                      \
    X(epollCtlAdd, EPOLL_CTL_ADD)                      \
    X(epollCtlMod, EPOLL_CTL_MOD)                      \
    X(epollCtlDel, EPOLL_CTL_DEL)                      \
    X(epollIn, EPOLLIN)                                \
    X(epollOut, EPOLLOUT)                              \
    X(epollErr, EPOLLERR)                              \
    X(epollHup, EPOLLHUP)                              \
    X(epollRdHup, EPOLLRDHUP)                          \
    X(senderIp, NUCX_SENDER_IP)                        \
    X(senderScopeId, NUCX_SENDER_SCOPE_ID)             \
    X(senderPort, NUCX_SENDER_PORT)                    \
    X(senderIpLength, NUCX_SENDER_IP_LENGTH)           \
    X(senderBytes, NUCX_SENDER_BYTES)                  \
    X(solSocket, SOL_SOCKET)                           \
    X(soBroadcast, SO_BROADCAST)                       \
    X(soRcvBuf, SO_RCVBUF)                             \
    X(soSndBuf, SO_SNDBUF)                             \
    X(soReuseAddr, SO_REUSEADDR)                       \
    X(soReusePort, SO_REUSEPORT)                       \
    X(soKeepAlive, SO_KEEPALIVE)                       \
    X(ipProtoTcp, IPPROTO_TCP)                         \
    X(tcpNoDelay, TCP_NODELAY)                         \
    X(ipProtoIp, IPPROTO_IP)                           \
    X(ipTos, IP_TOS)                                   \
    X(ipMulticastTtl, IP_MULTICAST_TTL)                \
    X(ipMulticastLoop, IP_MULTICAST_LOOP)              \
    X(ipProtoIpv6, IPPROTO_IPV6)                       \
    X(ipv6Tclass, IPV6_TCLASS)                         \
    X(ipv6MulticastHops, IPV6_MULTICAST_HOPS)          \
    X(ipv6MulticastLoop, IPV6_MULTICAST_LOOP)

#define NUCX_DEFINE_GETTER(name, value)                \
    static jint java_##name(JNIEnv *env, jclass cls) { \
        (void) env;                                    \
        (void) cls;                                    \
        return (jint) (value);                         \
    }
NUCX_JAVA_CONSTANTS(NUCX_DEFINE_GETTER)

#define NUCX_METHOD_ENTRY(name, value) {#name, "()I", (void *) java_##name},
static const JNINativeMethod methods[] = {NUCX_JAVA_CONSTANTS(NUCX_METHOD_ENTRY)};

int nucx_register_constants(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
