/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * One UCP worker per event loop, and the epoll set the loop sleeps in: the worker's event fd,
 * an eventfd for wakeup() from other threads, a timerfd for scheduled tasks where the kernel lacks
 * epoll_pwait2 (before 5.11, or a seccomp filter that refuses it), and the TCP sockets of the loop's
 * connections (side channels, and plain TCP ones). This is where the event loop waits
 * (java_worker_wait).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include "ucx_worker.h"
#include "ucx_conn.h"
#include "ucx_context.h"
#include "ucx_endpoint.h"
#include "ucx_errors.h"
#include "ucx_ids.h"
#include "ucx_linger.h"
#include "ucx_park.h"
#include "ucx_probe.h"
#include "ucx_stray.h"

#define NUCX_MAX_PROGRESS_ROUNDS 64
#define NUCX_MAX_WAIT_EVENTS 256
#ifndef SYS_epoll_pwait2
#define SYS_epoll_pwait2 441 /* the same number on every architecture */
#endif
/* While connections are closing, the loop wakes at least this often to reap them. */
#define NUCX_REAP_INTERVAL_NANOS 100000000L

static int add_to_epoll(int epoll_fd, int fd) {
    struct epoll_event ev = {.events = EPOLLIN, .data.u64 = (uint64_t) fd << 1};
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev);
}

static void close_fd(int fd) {
    if (fd >= 0) {
        close(fd);
    }
}

/* Frees whatever part of the worker was created; the single release path for all its resources. */
static void worker_free(nucx_worker *w) {
    if (w->worker != NULL) {
        nucx_probe_free(w);
        nucx_drop_all_strays(w);
        ucp_worker_destroy(w->worker);
    }
    /* Connections whose requests never finished: their memory outlived the worker's callbacks. */
    while (w->closing != NULL) {
        nucx_conn *conn = w->closing;
        w->closing = conn->linger.next_closing;
        nucx_conn_free(conn);
    }
    close_fd(w->epoll_fd);
    close_fd(w->event_fd);
    close_fd(w->timer_fd);
    free(w->ready);
    free(w->freed_ids);
    free(w->stray_buffer);
    nucx_ids_free(w);
    nucx_endpoint_table_free(w);
    free(w);
}

/* Creates a UCP worker and its event fd; on failure returns what failed and leaves *worker NULL. */
static const char *ucp_worker_new(ucp_worker_h *worker, int *event_fd, ucs_status_t *status) {
    ucp_worker_params_t params = {
        .field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
        /*
         * Created by the thread that builds the event loop group, then used by the loop's thread, which
         * changes when an auto-scaling group suspends the loop and resumes it: one thread at a time.
         */
        .thread_mode = UCS_THREAD_MODE_SERIALIZED,
    };
    *status = ucp_worker_create(nucx_context(), &params, worker);
    if (*status != UCS_OK) {
        *worker = NULL;
        return "ucp_worker_create";
    }
    *status = ucp_worker_get_efd(*worker, event_fd);
    if (*status != UCS_OK) {
        ucp_worker_destroy(*worker);
        *worker = NULL;
        return "ucp_worker_get_efd";
    }
    return NULL;
}

static int epoll_pwait2_nanos(int epoll_fd, struct epoll_event *events, int limit, jlong timeout_nanos) {
    struct timespec timeout = {.tv_sec = timeout_nanos / 1000000000L, .tv_nsec = timeout_nanos % 1000000000L};
    return (int) syscall(SYS_epoll_pwait2, epoll_fd, events, limit, &timeout, NULL, 0);
}

/* Whether epoll_pwait2 can time the worker's waits (one system call less per timed wait than the timerfd). */
static int pwait2_works(int epoll_fd) {
    struct epoll_event event;
    return epoll_pwait2_nanos(epoll_fd, &event, 1, 0) >= 0;
}

static const char *worker_init(nucx_worker *w, int max_connections, ucs_status_t *status) {
    *status = nucx_context_init();
    if (*status != UCS_OK) {
        return "ucp_init";
    }
    const char *failed = ucp_worker_new(&w->worker, &w->ucx_fd, status);
    if (failed != NULL) {
        return failed;
    }
    w->ready = calloc((size_t) NUCX_READY_HEADER_WORDS + 2 * (size_t) max_connections, sizeof(int32_t));
    if (w->ready == NULL) {
        *status = UCS_ERR_NO_MEMORY;
        return "ready list";
    }
    w->ready[NUCX_READY_CAPACITY] = 2 * max_connections;
    w->max_connections = max_connections;
    w->stray_buffer = malloc(NUCX_STRAY_BUFFER_BYTES);
    if (w->stray_buffer == NULL) {
        *status = UCS_ERR_NO_MEMORY;
        return "stray message buffer";
    }
    w->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    w->event_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    w->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (w->epoll_fd < 0 || w->event_fd < 0 || w->timer_fd < 0 ||
        add_to_epoll(w->epoll_fd, w->ucx_fd) != 0 ||
        add_to_epoll(w->epoll_fd, w->event_fd) != 0 ||
        add_to_epoll(w->epoll_fd, w->timer_fd) != 0) {
        *status = UCS_ERR_IO_ERROR;
        return "epoll set-up";
    }
    w->timed_wait_pwait2 = pwait2_works(w->epoll_fd);
    return NULL;
}

static jlong java_worker_create(JNIEnv *env, jclass cls, jint max_connections) {
    (void) cls;
    nucx_worker *w = calloc(1, sizeof(*w));
    if (w == NULL) {
        nucx_throw_io(env, "worker", "out of memory");
        return 0;
    }
    w->epoll_fd = w->event_fd = w->timer_fd = -1;
    ucs_status_t status;
    const char *failed = worker_init(w, max_connections, &status);
    if (failed != NULL) {
        int err = errno;
        worker_free(w);
        if (status == UCS_ERR_IO_ERROR) {
            nucx_throw_errno(env, failed, err);
        } else {
            nucx_throw_ucs(env, failed, status);
        }
        return 0;
    }
    return (jlong) (intptr_t) w;
}

/* How long a destroyed worker keeps progressing so that closing endpoints finish their flush. */
#define NUCX_DESTROY_DRAIN_NANOS (3ull * 1000000000ull)
/*
 * The same for a worker being replaced, shorter: the loop's other work waits meanwhile, and the
 * drain ends early anyway once the closing connections wait only for receives that can never
 * finish (see close_all_connections).
 */
#define NUCX_RENEW_DRAIN_NANOS (1000000000ull)

static int count_closing(const nucx_worker *w) {
    int count = 0;
    for (const nucx_conn *conn = w->closing; conn != NULL; conn = conn->linger.next_closing) {
        count++;
    }
    return count;
}

/* Frees our own descriptors and memory of a worker whose UCP worker cannot be destroyed safely. */
static void worker_leak_ucx(nucx_worker *w) {
    nucx_leave_closing(w);
    close_fd(w->epoll_fd);
    close_fd(w->event_fd);
    close_fd(w->timer_fd);
}

/*
 * Closes every connection of the UCP worker without flushing and progresses it until they are
 * freed, wait only for receives that can never complete, or drain_nanos passed. Returns how many
 * were still open, or -1 - the number still closing at the end.
 */
static int close_all_connections(nucx_worker *w, uint64_t drain_nanos) {
    nucx_probe_free(w);
    int left_open = nucx_close_live(w);
    nucx_abandon_closing(w);
    uint64_t deadline = nucx_now_nanos() + drain_nanos;
    while (w->closing != NULL && nucx_closing_needs_progress(w) && nucx_now_nanos() < deadline) {
        ucp_worker_progress(w->worker);
        nucx_reap_closed(w);
    }
    if (w->closing != NULL && !nucx_closing_needs_progress(w)) {
        /* Only then: the UCP worker is destroyed next, and nothing can write into their buffers any more. */
        nucx_let_go_of_stuck_receives(w);
    }
    return w->closing == NULL ? left_open : -1 - count_closing(w);
}

/*
 * Returns how many connections were still open (Java should have closed them all), or, when
 * endpoints were still closing after NUCX_DESTROY_DRAIN_NANOS, -1 - their number: UCX 1.13 aborts
 * the process (assertion on the endpoint's pending protocol requests) if the worker is destroyed
 * then, so the UCP worker and those connections are left allocated instead.
 */
static jint java_worker_destroy(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) env; (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    int result = close_all_connections(w, NUCX_DESTROY_DRAIN_NANOS);
    if (result < 0) {
        worker_leak_ucx(w);
        return result;
    }
    worker_free(w);
    return result;
}

/*
 * Gives the loop a new UCP worker in place of one whose shared-memory receive queue is stuck
 * (ucx_probe.c); the loop keeps its epoll set, eventfd, timerfd and ready list. Every connection
 * of the old UCP worker is closed without flushing; returns as java_worker_destroy does. When some
 * did not finish closing, the old UCP worker is left allocated with them, as destroy does.
 */
static jint java_worker_renew(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    ucp_worker_h fresh;
    int fresh_fd;
    ucs_status_t status;
    const char *failed = ucp_worker_new(&fresh, &fresh_fd, &status);
    if (failed != NULL) {
        nucx_throw_ucs(env, failed, status);
        return 0;
    }
    int result = close_all_connections(w, NUCX_RENEW_DRAIN_NANOS);
    epoll_ctl(w->epoll_fd, EPOLL_CTL_DEL, w->ucx_fd, NULL);
    if (result >= 0) {
        nucx_drop_all_strays(w);
        ucp_worker_destroy(w->worker);
    } else {
        nucx_leave_closing(w);
    }
    w->worker = fresh;
    w->ucx_fd = fresh_fd;
    w->ready[NUCX_READY_COUNT] = 0;
    if (add_to_epoll(w->epoll_fd, fresh_fd) != 0) {
        nucx_throw_errno(env, "epoll_ctl(ADD) of the new worker's event fd", errno);
    }
    return result;
}

static jint java_worker_progress(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) env; (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    int rounds = 0;
    while (rounds < NUCX_MAX_PROGRESS_ROUNDS && ucp_worker_progress(w->worker) != 0) {
        rounds++;
    }
    if (rounds > 0 || w->sweep_pending) {
        /*
         * A full sweep may have left messages, held ones for parked connections among them: the next
         * call sweeps again, and this one counts as progress so that the loop makes it before it sleeps.
         */
        w->sweep_pending = nucx_sweep_strays(w) == NUCX_STRAYS_PER_SWEEP;
        rounds += w->sweep_pending;
    }
    if (w->closing != NULL) {
        nucx_reap_closed(w);
    }
    return rounds;
}

static void set_timer(nucx_worker *w, jlong timeout_nanos) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof(spec));
    spec.it_value.tv_sec = timeout_nanos / 1000000000L;
    spec.it_value.tv_nsec = timeout_nanos % 1000000000L;
    timerfd_settime(w->timer_fd, 0, &spec, NULL);
}

static void drain_fd(int fd) {
    uint64_t value;
    while (read(fd, &value, sizeof(value)) > 0) {
    }
}

/* epoll_wait for timeout_nanos: 0 polls, < 0 sleeps until an event, > 0 sleeps at most that long. */
static int wait_events(nucx_worker *w, struct epoll_event *events, int limit, jlong timeout_nanos) {
    if (timeout_nanos > 0 && w->timed_wait_pwait2) {
        return epoll_pwait2_nanos(w->epoll_fd, events, limit, timeout_nanos);
    }
    if (timeout_nanos > 0) {
        set_timer(w, timeout_nanos);
    }
    return epoll_wait(w->epoll_fd, events, limit, timeout_nanos == 0 ? 0 : -1);
}

/*
 * Sleeps until the worker, a registered socket, wakeup() or the timeout needs the loop.
 * timeout_nanos: < 0 sleeps without timeout, 0 only polls sockets (no arming), > 0 sleeps at most that long.
 * Returns the number of socket events (enum nucx_event_word) written to events_addr, or -1 when the
 * worker had unprocessed events (ucp_worker_arm said BUSY) and must be progressed before sleeping.
 */
static jint java_worker_wait(JNIEnv *env, jclass cls, jlong worker_ptr, jlong events_addr, jint max_events,
                             jlong timeout_nanos) {
    (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    if (w->ready[NUCX_READY_COUNT] > 0) {
        timeout_nanos = 0; /* connections listed again by their last dispatch still wait for Java */
    }
    if (timeout_nanos != 0) {
        ucs_status_t status = ucp_worker_arm(w->worker);
        if (status == UCS_ERR_BUSY) {
            /*
             * Back to Java even when BUSY only meant the signal that woke the loop (the usual case after a
             * wake-up through shared memory, which only arming drains): the round through the loop's tasks
             * takes the writes that the woken application threads make meanwhile, which a loop that armed
             * again at once would be woken for (docs/benchmarks/shared-machine/loop-wait).
             */
            return -1;
        }
        if (status != UCS_OK) {
            nucx_throw_ucs(env, "ucp_worker_arm", status);
            return 0;
        }
        if (w->closing != NULL && (timeout_nanos < 0 || timeout_nanos > NUCX_REAP_INTERVAL_NANOS)) {
            timeout_nanos = NUCX_REAP_INTERVAL_NANOS;
        }
    }
    struct epoll_event events[NUCX_MAX_WAIT_EVENTS];
    int limit = max_events < NUCX_MAX_WAIT_EVENTS ? max_events : NUCX_MAX_WAIT_EVENTS;
    int n = wait_events(w, events, limit, timeout_nanos);
    if (n < 0) {
        if (errno == EINTR) {
            return 0;
        }
        nucx_throw_errno(env, "epoll_wait", errno);
        return 0;
    }
    int32_t *out = (int32_t *) (intptr_t) events_addr;
    int count = 0;
    for (int i = 0; i < n; i++) {
        uint64_t data = events[i].data.u64;
        if (data & NUCX_EPOLL_CONN_BIT) {
            nucx_linger_readable((nucx_conn *) (uintptr_t) (data & ~NUCX_EPOLL_CONN_BIT));
            continue;
        }
        int fd = (int) (data >> 1);
        if (fd == w->event_fd || fd == w->timer_fd) {
            drain_fd(fd);
        } else if (fd != w->ucx_fd) {
            int32_t *event = out + (size_t) count * NUCX_EVENT_WORDS;
            event[NUCX_EVENT_FD] = fd;
            event[NUCX_EVENT_EVENTS] = (int32_t) events[i].events;
            count++;
        }
    }
    return count;
}

/* Whether timed waits use epoll_pwait2 (1) or the timerfd (0); force_timer_fd makes them use the timerfd. */
static jboolean java_worker_timed_wait_pwait2(JNIEnv *env, jclass cls, jlong worker_ptr, jboolean force_timer_fd) {
    (void) env; (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    if (force_timer_fd) {
        w->timed_wait_pwait2 = 0;
    }
    return w->timed_wait_pwait2 ? JNI_TRUE : JNI_FALSE;
}

/* Takes the eventfd, not the worker: other threads call it and must never touch freed memory. */
static void java_eventfd_write(JNIEnv *env, jclass cls, jint event_fd) {
    (void) env; (void) cls;
    uint64_t one = 1;
    /* EAGAIN means the counter is already non-zero: the loop will wake anyway. */
    if (write(event_fd, &one, sizeof(one)) < 0) {
        return;
    }
}

static jint java_worker_event_fd(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) env; (void) cls;
    return ((nucx_worker *) (intptr_t) worker_ptr)->event_fd;
}

/* op and events are the kernel's values, which Java reads from this library (ucx_constants.c). */
static void java_epoll_ctl(JNIEnv *env, jclass cls, jlong worker_ptr, jint op, jint fd, jint events) {
    (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    struct epoll_event ev = {.events = (uint32_t) events, .data.u64 = (uint64_t) fd << 1};
    if (op != EPOLL_CTL_ADD && op != EPOLL_CTL_MOD && op != EPOLL_CTL_DEL) {
        nucx_throw_io(env, "epoll_ctl", "bad operation");
        return;
    }
    if (epoll_ctl(w->epoll_fd, op, fd, &ev) != 0) {
        nucx_throw_errno(env, "epoll_ctl", errno);
    }
}

static jbyteArray java_worker_address(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    ucp_address_t *address;
    size_t length;
    ucs_status_t status = ucp_worker_get_address(w->worker, &address, &length);
    if (status != UCS_OK) {
        nucx_throw_ucs(env, "ucp_worker_get_address", status);
        return NULL;
    }
    jbyteArray result = (*env)->NewByteArray(env, (jsize) length);
    if (result != NULL) {
        (*env)->SetByteArrayRegion(env, result, 0, (jsize) length, (const jbyte *) address);
    }
    ucp_worker_release_address(w->worker, address);
    return result;
}

/*
 * Connections Java closed that still linger (ucx_linger.c): while there are any, the worker must be progressed,
 * so the loop keeps its thread (an auto-scaling group would otherwise suspend it).
 */
static jint java_worker_closing_count(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) env; (void) cls;
    return count_closing((nucx_worker *) (intptr_t) worker_ptr);
}

/* A view of the whole ready list, header and capacity included; it lives as long as the worker. */
static jobject java_worker_ready_list(JNIEnv *env, jclass cls, jlong worker_ptr) {
    (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    jlong words = (jlong) NUCX_READY_HEADER_WORDS + w->ready[NUCX_READY_CAPACITY];
    return (*env)->NewDirectByteBuffer(env, w->ready, words * (jlong) sizeof(int32_t));
}

static const JNINativeMethod methods[] = {
    {"workerCreate", "(I)J", (void *) java_worker_create},
    {"workerDestroy", "(J)I", (void *) java_worker_destroy},
    {"workerRenew", "(J)I", (void *) java_worker_renew},
    {"workerProgress", "(J)I", (void *) java_worker_progress},
    {"workerWait", "(JJIJ)I", (void *) java_worker_wait},
    {"workerTimedWaitPwait2", "(JZ)Z", (void *) java_worker_timed_wait_pwait2},
    {"eventFdWrite", "(I)V", (void *) java_eventfd_write},
    {"workerEventFd", "(J)I", (void *) java_worker_event_fd},
    {"workerEpollCtl", "(JIII)V", (void *) java_epoll_ctl},
    {"workerAddress", "(J)[B", (void *) java_worker_address},
    {"workerReadyList", "(J)Ljava/nio/ByteBuffer;", (void *) java_worker_ready_list},
    {"workerClosingCount", "(J)I", (void *) java_worker_closing_count},
};

int nucx_register_worker(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
