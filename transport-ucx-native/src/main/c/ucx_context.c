/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The process-wide UCP context: one per JVM, created on first use, never destroyed (workers of
 * every event loop share it, and the JVM may still hold endpoints at exit).
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ucx_context.h"
#include "ucx_errors.h"

static ucp_context_h context;
static ucs_status_t context_status = UCS_ERR_NO_ELEM;
static pthread_once_t context_once = PTHREAD_ONCE_INIT;

static int rdma_devices_present(void) {
    DIR *dir = opendir("/sys/class/infiniband");
    if (dir == NULL) {
        return 0;
    }
    int found = 0;
    struct dirent *entry;
    while (!found && (entry = readdir(dir)) != NULL) {
        found = entry->d_name[0] != '.';
    }
    closedir(dir);
    return found;
}

/*
 * Settings the transport needs; setenv(..., 0) keeps any value the user exported. Endpoints use
 * peer error handling so that a peer dying mid-transfer is an error, not an abort of this process
 * (UCX 1.13 aborts on a failed cma copy without it). Shared-memory transports join such
 * endpoints only when their error handling is switched on here.
 *
 * Every message goes to a receive the peer posted in advance (credit flow control), so eager
 * sends never pile up in UCX's unexpected queue. Without an RDMA device, rendezvous would move
 * the same bytes through the same shared-memory or TCP lanes, only after extra round trips that
 * each may wait for a sleeping event loop; so it is switched off there. With RDMA devices UCX
 * keeps its own threshold: rendezvous is then zero-copy.
 *
 * UCX's tcp transport caps one active message at its receive segment (64 KiB by default), so a
 * full receive unit (64 KiB plus UCP's header) went out as two messages, the second a few bytes,
 * each with its own recv call and partial-message bookkeeping. 256 KiB segments carry it whole
 * and let one recv call take several messages: 64 KiB throughput over TCP, one connection, rose by
 * 27% and 46% in two A/B series (bin/bench --quick, ucx-tcp). The cost is memory while a message is
 * partly received: one segment per such TCP endpoint.
 *
 * UCX's tcp transport connects a new endpoint with a blocking connect() unless TCP_CONN_NB is set:
 * an address naming a host that drops packets would hold the event loop that creates the endpoint
 * for the kernel's SYN retries, and every connection of that loop with it.
 *
 * Transports (docs/security.md#ucxs-own-ports-and-segments): UCX's tcp transport listens on ports of
 * its own, on every interface, where anyone reaching the host meets UCX's wire-up unauthenticated.
 * While the TCP data path carries what TCP would (ucx_tcp == 0: tcpDataPath auto or always), UCX's
 * tcp transport carries nothing, so it is not opened. System V segments are created with mode 0660
 * (open to the user's group); the posix transport's are 0600 and reached through /proc/PID/fd, so
 * it alone carries shared memory. A UCX_TLS the user exported is kept as it is (Java warns).
 *
 * UCX's keepalive (on for endpoints with peer error handling) is off: each connection's side
 * channel already tells a peer's end (its process's sockets close with it) and a vanished host (its
 * TCP keepalive, set by the connector), while UCX's keepalive timer is read at every arm of a
 * worker: one more system call for every sleep of a loop (docs/benchmarks/short-path).
 */
static void apply_transport_defaults(int ucx_tcp) {
    /* UCX warns about variables of transports it does not open: with the user's UCX_TLS, any may be open. */
    int user_tls = getenv("UCX_TLS") != NULL;
    setenv("UCX_TLS", ucx_tcp ? "^sysv" : "^tcp,sysv", 0);
    if (user_tls) {
        setenv("UCX_SYSV_ERROR_HANDLING", "y", 0);
    }
    setenv("UCX_POSIX_ERROR_HANDLING", "y", 0);
    setenv("UCX_KEEPALIVE_INTERVAL", "inf", 0);
    if (user_tls || ucx_tcp) {
        setenv("UCX_TCP_RX_SEG_SIZE", "256k", 0);
        setenv("UCX_TCP_CONN_NB", "y", 0);
    }
    if (!rdma_devices_present()) {
        setenv("UCX_RNDV_THRESH", "inf", 0);
    }
}

static int context_ucx_tcp;

static void context_create(void) {
    apply_transport_defaults(context_ucx_tcp);
    ucp_config_t *config;
    context_status = ucp_config_read(NULL, NULL, &config);
    if (context_status != UCS_OK) {
        return;
    }
    ucp_params_t params = {
        .field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                      UCP_PARAM_FIELD_NAME,
        .features = UCP_FEATURE_TAG | UCP_FEATURE_WAKEUP,
        .mt_workers_shared = 1,
        .name = "netty-ucx",
    };
    context_status = ucp_init(&params, config, &context);
    ucp_config_release(config);
}

ucs_status_t nucx_context_init(void) {
    pthread_once(&context_once, context_create);
    return context_status;
}

ucp_context_h nucx_context(void) {
    return context;
}

/* ucx_tcp: whether UCX's own tcp transport is wanted (see apply_transport_defaults); the first call decides. */
static void java_context_init(JNIEnv *env, jclass cls, jboolean ucx_tcp) {
    (void) cls;
    context_ucx_tcp = ucx_tcp == JNI_TRUE;
    ucs_status_t status = nucx_context_init();
    if (status != UCS_OK) {
        nucx_throw_ucs(env, "ucp_init failed", status);
    }
}

/* Appends the transport name of a "resource N : md M dev D flags -- tl/device" line, once. */
static void add_transport(const char *line, char *names, size_t capacity) {
    const char *tl = strstr(line, "-- ");
    if (strstr(line, "resource") == NULL || tl == NULL) {
        return;
    }
    tl += 3;
    size_t length = strcspn(tl, "/\n");
    char word[64];
    if (length == 0 || length + 2 >= sizeof(word)) {
        return;
    }
    snprintf(word, sizeof(word), " %.*s ", (int) length, tl);
    size_t used = strlen(names);
    if (strstr(names, word) == NULL && used + length + 2 < capacity) {
        snprintf(names + used, capacity - used, "%.*s ", (int) length, tl);
    }
}

/*
 * The transports this process's UCP context can use (" self tcp sysv posix cma "), as
 * ucp_context_print_info lists its resources: the hello tells the peer whether a UCX endpoint
 * between the two could use anything but TCP.
 */
static jstring java_context_transports(JNIEnv *env, jclass cls) {
    (void) cls;
    ucs_status_t status = nucx_context_init();
    if (status != UCS_OK) {
        nucx_throw_ucs(env, "ucp_init failed", status);
        return NULL;
    }
    char *text = NULL;
    size_t size = 0;
    FILE *stream = open_memstream(&text, &size);
    if (stream == NULL) {
        nucx_throw_errno(env, "open_memstream", errno);
        return NULL;
    }
    ucp_context_print_info(context, stream);
    fclose(stream);
    char names[1024] = " ";
    char *saved = NULL;
    for (char *line = strtok_r(text, "\n", &saved); line != NULL; line = strtok_r(NULL, "\n", &saved)) {
        add_transport(line, names, sizeof(names));
    }
    free(text);
    return (*env)->NewStringUTF(env, names);
}

static jstring java_ucx_version(JNIEnv *env, jclass cls) {
    (void) cls;
    return (*env)->NewStringUTF(env, ucp_get_version_string());
}

static jstring java_status_string(JNIEnv *env, jclass cls, jint status) {
    (void) cls;
    return (*env)->NewStringUTF(env, nucx_status_string(status));
}

static const JNINativeMethod methods[] = {
    {"statusString", "(I)Ljava/lang/String;", (void *) java_status_string},
    {"contextInit", "(Z)V", (void *) java_context_init},
    {"ucxVersion", "()Ljava/lang/String;", (void *) java_ucx_version},
    {"contextTransports", "()Ljava/lang/String;", (void *) java_context_transports},
};

int nucx_register_context(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
