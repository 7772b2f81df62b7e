/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The time slice a loop thread asks the kernel's scheduler for (UcxLoopSlice.java). Since Linux 6.12 a thread of
 * the normal policy may request its own slice through sched_setattr's sched_runtime, no privilege needed; a shorter
 * slice than the running thread's lets a waking thread preempt it at once. Older kernels ignore the field and
 * report 0, which this passes on: the caller learns that the kernel has no such request.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "ucx_thread.h"

/* The kernel's struct sched_attr as of its first version (48 bytes), enough for the fields used here. */
struct nucx_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
};

/* SCHED_FLAG_RESET_ON_FORK, kept as the thread had it. */
#define NUCX_SCHED_FLAG_RESET_ON_FORK 0x01

static int get_attr(struct nucx_sched_attr *attr) {
    memset(attr, 0, sizeof(*attr));
    return (int) syscall(SYS_sched_getattr, 0, attr, sizeof(*attr), 0);
}

/*
 * Asks for a slice of `nanos` for the calling thread, keeping its policy and nice value; only for the normal and
 * batch policies. Returns the slice the kernel reports afterwards (0 where it keeps none per thread), or -errno.
 */
static jlong java_thread_request_slice(JNIEnv *env, jclass cls, jlong nanos) {
    (void) env; (void) cls;
    struct nucx_sched_attr attr;
    if (get_attr(&attr) != 0) {
        return -errno;
    }
    if (attr.sched_policy != SCHED_OTHER && attr.sched_policy != SCHED_BATCH) {
        return -EPERM;
    }
    attr.size = sizeof(attr);
    attr.sched_flags &= NUCX_SCHED_FLAG_RESET_ON_FORK;
    attr.sched_runtime = nanos > 0 ? (uint64_t) nanos : 0;
    attr.sched_deadline = 0;
    attr.sched_period = 0;
    if (syscall(SYS_sched_setattr, 0, &attr, 0) != 0) {
        return -errno;
    }
    if (get_attr(&attr) != 0) {
        return -errno;
    }
    return attr.sched_runtime > INT64_MAX ? INT64_MAX : (jlong) attr.sched_runtime;
}

static const JNINativeMethod methods[] = {
    {"threadRequestSlice", "(J)J", (void *) java_thread_request_slice},
};

int nucx_register_thread(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
