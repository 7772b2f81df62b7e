/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The values Java shares with this library: words of the memory it reads and writes (ucx_native.h),
 * what some natives return, and the kernel's epoll values. Each is a native method of
 * UcxNativeConstants, read once into a constant of UcxNative when that class is initialised, so the
 * definitions here are the only ones (as Netty's NativeStaticallyReferencedJniMethods). A name
 * missing on either side fails the library's loading or UcxNative's initialisation, never silently.
 * Socket options are looked up by their C name instead (UcxKernelOption): a new one is a row in
 * NUCX_SOCKET_OPTIONS and a descriptor in Java, nothing else.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
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
    X(createdSendStride, NUCX_CREATED_SEND_STRIDE)     \
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
    X(senderBytes, NUCX_SENDER_BYTES)

/* The kernel's socket options that Java sets or reads: C name, level. */
#define NUCX_SOCKET_OPTIONS(X)             \
    X(SO_BROADCAST, SOL_SOCKET)            \
    X(SO_RCVBUF, SOL_SOCKET)               \
    X(SO_SNDBUF, SOL_SOCKET)               \
    X(SO_REUSEADDR, SOL_SOCKET)            \
    X(SO_REUSEPORT, SOL_SOCKET)            \
    X(SO_KEEPALIVE, SOL_SOCKET)            \
    X(TCP_NODELAY, IPPROTO_TCP)            \
    X(IP_TOS, IPPROTO_IP)                  \
    X(IP_MULTICAST_TTL, IPPROTO_IP)        \
    X(IP_MULTICAST_LOOP, IPPROTO_IP)       \
    X(IPV6_TCLASS, IPPROTO_IPV6)           \
    X(IPV6_MULTICAST_HOPS, IPPROTO_IPV6)   \
    X(IPV6_MULTICAST_LOOP, IPPROTO_IPV6)

struct nucx_socket_option {
    const char *name;
    int level;
    int option;
};

#define NUCX_SOCKET_OPTION_ROW(name, level) {#name, level, name},
static const struct nucx_socket_option socket_options[] = {NUCX_SOCKET_OPTIONS(NUCX_SOCKET_OPTION_ROW)};

/* The level in the high 32 bits and the option in the low ones, or -1 for a name not in the table. */
static jlong java_socket_option(JNIEnv *env, jclass cls, jstring name) {
    (void) cls;
    const char *chars = (*env)->GetStringUTFChars(env, name, NULL);
    if (chars == NULL) {
        return -1;
    }
    jlong found = -1;
    for (size_t i = 0; i < NUCX_ARRAY_LEN(socket_options); i++) {
        if (strcmp(chars, socket_options[i].name) == 0) {
            found = (jlong) socket_options[i].level << 32 | (jlong) (uint32_t) socket_options[i].option;
            break;
        }
    }
    (*env)->ReleaseStringUTFChars(env, name, chars);
    return found;
}

#define NUCX_DEFINE_GETTER(name, value)                \
    static jint java_##name(JNIEnv *env, jclass cls) { \
        (void) env;                                    \
        (void) cls;                                    \
        return (jint) (value);                         \
    }
NUCX_JAVA_CONSTANTS(NUCX_DEFINE_GETTER)

#define NUCX_METHOD_ENTRY(name, value) {#name, "()I", (void *) java_##name},
static const JNINativeMethod methods[] = {
    NUCX_JAVA_CONSTANTS(NUCX_METHOD_ENTRY)
    {"socketOption", "(Ljava/lang/String;)J", (void *) java_socket_option},
};

int nucx_register_constants(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
