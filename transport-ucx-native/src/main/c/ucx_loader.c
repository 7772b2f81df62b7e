/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Library entry point: registers every native method of UcxNative and UcxNativeConstants (no JNI
 * name mangling is used, so the symbol table exports only JNI_OnLoad/JNI_OnUnload).
 *
 * UcxNative's static initialiser loads this library, and so runs JNI_OnLoad: FindClass returns the
 * class being initialised, and its constants are read from UcxNativeConstants once the load returns.
 *
 * This file is where the library is put together: it is the only one that names every other, and
 * it hands the connection core the path new connections start on (the tag path), so that the core
 * names no path and the paths can call the core.
 */
#include <signal.h>
#include <ucs/debug/debug.h>
#include "ucx_conn.h"
#include "ucx_constants.h"
#include "ucx_context.h"
#include "ucx_datagram.h"
#include "ucx_errors.h"
#include "ucx_file_region.h"
#include "ucx_host.h"
#include "ucx_linger.h"
#include "ucx_log.h"
#include "ucx_memory.h"
#include "ucx_peer.h"
#include "ucx_plain.h"
#include "ucx_probe.h"
#include "ucx_socket.h"
#include "ucx_stray.h"
#include "ucx_thread.h"
#include "ucx_worker.h"

#define NUCX_NATIVE_CLASS "io/github/nettyucx/jni/UcxNative"
#define NUCX_CONSTANTS_CLASS "io/github/nettyucx/jni/UcxNativeConstants"

/*
 * Exported by libucs with these semantics from UCX 1.13 (and before) to 1.22 at least, but declared only in UCX's
 * internal header: true when libucs installed its handler for the error signal and still holds it.
 */
int ucs_debug_is_error_signal(int signum);

/*
 * libucs installs handlers for these signals when it is loaded (before any UCX_* setting of ours
 * could matter). The JVM relies on its own: SIGSEGV/SIGBUS for implicit null checks and
 * safepoints, SIGHUP to run shutdown hooks. Give them back.
 *
 * The error signals (UCX_ERROR_SIGNALS) are taken only while UCX_HANDLE_ERRORS asks for a backtrace, a freeze or
 * a debugger: the default up to UCX 1.19, "none" from 1.20 on. Where libucs took none, ucs_debug_disable_signal
 * would print "signal N was not set in ucs" for each, so those are asked first. SIGHUP (UCX_DEBUG_SIGNO, whose
 * default it is on every release) is taken whatever UCX_HANDLE_ERRORS says.
 */
static void restore_jvm_signal_handlers(void) {
    static const int error_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (int i = 0; i < NUCX_ARRAY_LEN(error_signals); i++) {
        if (ucs_debug_is_error_signal(error_signals[i])) {
            ucs_debug_disable_signal(error_signals[i]);
        }
    }
    ucs_debug_disable_signal(SIGHUP);
}

JNIEXPORT jint JNI_OnLoad(JavaVM *vm, void *reserved) {
    (void) reserved;
    restore_jvm_signal_handlers();
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_8) != JNI_OK) {
        return JNI_ERR;
    }
    jclass constants = (*env)->FindClass(env, NUCX_CONSTANTS_CLASS);
    if (constants == NULL || nucx_register_constants(env, constants) != 0) {
        return JNI_ERR;
    }
    (*env)->DeleteLocalRef(env, constants);
    jclass cls = (*env)->FindClass(env, NUCX_NATIVE_CLASS);
    if (cls == NULL) {
        return JNI_ERR;
    }
    if (nucx_errors_init(env) != 0 ||
        nucx_register_context(env, cls) != 0 ||
        nucx_register_worker(env, cls) != 0 ||
        nucx_register_conn(env, cls) != 0 ||
        nucx_register_linger(env, cls) != 0 ||
        nucx_register_socket(env, cls) != 0 ||
        nucx_register_peer(env, cls) != 0 ||
        nucx_register_stray(env, cls) != 0 ||
        nucx_register_datagram(env, cls) != 0 ||
        nucx_register_memory(env, cls) != 0 ||
        nucx_register_probe(env, cls) != 0 ||
        nucx_register_plain(env, cls) != 0 ||
        nucx_register_file_region(env, cls) != 0 ||
        nucx_register_host(env, cls) != 0 ||
        nucx_register_thread(env, cls) != 0 ||
        nucx_register_log(env, cls) != 0) {
        return JNI_ERR;
    }
    (*env)->DeleteLocalRef(env, cls);
    return JNI_VERSION_1_8;
}

JNIEXPORT void JNI_OnUnload(JavaVM *vm, void *reserved) {
    (void) reserved;
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_8) == JNI_OK) {
        nucx_errors_destroy(env);
        nucx_file_region_destroy(env);
        nucx_log_destroy(env);
    }
}
