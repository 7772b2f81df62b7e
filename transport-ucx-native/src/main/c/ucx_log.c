/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * UCX's log lines, handed to Netty's InternalLogger (UcxNativeLog in Java) instead of UCX's own
 * output on stderr, so that they land where the application's logs do, at the matching level.
 * Java installs the handler once the library is loaded, before the UCP context is created, and
 * turns it off from a shutdown hook: a JVM on its way out must not be called into from the
 * handler (libucs still logs from its destructors at exit).
 *
 * Each line is formatted here and handed up with one JNI call: UCX logs little (warnings and
 * errors unless UCX_LOG_LEVEL asks for more). UCX calls the handler from any thread, its own
 * async thread included; a thread the JVM does not know is attached for the call and detached
 * after it. Fatal lines (UCX aborts the process next) and lines the JVM could not take go on to
 * UCX's default handler, as before.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <ucs/debug/log_def.h>
#include "ucx_log.h"

/* Longer lines are cut: UCX's own default buffer is no larger. */
#define NUCX_LOG_LINE_BYTES 1024

/* The InternalLogger levels, each a static method (byte[]) of UcxNativeLog. */
enum { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG, LOG_TRACE, LOG_LEVELS };

static const char *const log_method_names[LOG_LEVELS] = {"error", "warn", "info", "debug", "trace"};

static JavaVM *java_vm;
static jclass log_class;
static jmethodID log_methods[LOG_LEVELS];
/* Whether lines go to Java now: set by logInstall, cleared by the shutdown hook's logStop. */
static int routing;
/* Handlers UCX had before ours was pushed: ours is popped at unload only if it is still the last. */
static unsigned handlers_before;
static int pushed;

static int java_level(ucs_log_level_t level) {
    switch (level) {
    case UCS_LOG_LEVEL_ERROR:
        return LOG_ERROR;
    case UCS_LOG_LEVEL_WARN:
        return LOG_WARN;
    case UCS_LOG_LEVEL_DIAG:
    case UCS_LOG_LEVEL_INFO:
    case UCS_LOG_LEVEL_PRINT:
        return LOG_INFO;
    case UCS_LOG_LEVEL_DEBUG:
        return LOG_DEBUG;
    default:
        return LOG_TRACE;
    }
}

/* "file.c:line message", cut to the buffer; returns its length. */
static size_t format_line(char *text, size_t size, const char *file, unsigned line, const char *format, va_list ap) {
    const char *slash = file != NULL ? strrchr(file, '/') : NULL;
    const char *name = slash != NULL ? slash + 1 : (file != NULL ? file : "?");
    int prefix = snprintf(text, size, "%s:%u ", name, line);
    if (prefix < 0 || (size_t) prefix >= size) {
        prefix = 0;
    }
    int body = vsnprintf(text + prefix, size - (size_t) prefix, format, ap);
    if (body < 0) {
        body = 0;
    }
    size_t length = (size_t) prefix + (size_t) body;
    return length < size ? length : size - 1;
}

/* The calling thread's JNIEnv, attaching a thread the JVM does not know (then *attached is 1); NULL if it cannot. */
static JNIEnv *thread_env(int *attached) {
    JNIEnv *env = NULL;
    *attached = 0;
    jint rc = (*java_vm)->GetEnv(java_vm, (void **) &env, JNI_VERSION_1_8);
    if (rc == JNI_OK) {
        return env;
    }
    if (rc != JNI_EDETACHED || (*java_vm)->AttachCurrentThreadAsDaemon(java_vm, (void **) &env, NULL) != JNI_OK) {
        return NULL;
    }
    *attached = 1;
    return env;
}

/*
 * Calls the logger; returns 1 when it took the line. An exception the caller's native method was
 * about to throw is set aside for the call and thrown again after it; one the logger threw is dropped.
 */
static int hand_up(JNIEnv *env, int level, const char *text, size_t length) {
    jthrowable pending = (*env)->ExceptionOccurred(env);
    if (pending != NULL) {
        (*env)->ExceptionClear(env);
    }
    int taken = 0;
    jbyteArray bytes = (*env)->NewByteArray(env, (jsize) length);
    if (bytes != NULL) {
        (*env)->SetByteArrayRegion(env, bytes, 0, (jsize) length, (const jbyte *) text);
        (*env)->CallStaticVoidMethod(env, log_class, log_methods[level], bytes);
        taken = !(*env)->ExceptionCheck(env);
        (*env)->DeleteLocalRef(env, bytes);
    }
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
    }
    if (pending != NULL) {
        (*env)->Throw(env, pending);
        (*env)->DeleteLocalRef(env, pending);
    }
    return taken;
}

static ucs_log_func_rc_t log_to_java(const char *file, unsigned line, const char *function, ucs_log_level_t level,
                                     const ucs_log_component_config_t *comp_conf, const char *format, va_list ap) {
    (void) function; (void) comp_conf;
    if (level == UCS_LOG_LEVEL_FATAL || !__atomic_load_n(&routing, __ATOMIC_ACQUIRE)) {
        return UCS_LOG_FUNC_RC_CONTINUE;
    }
    char text[NUCX_LOG_LINE_BYTES];
    size_t length = format_line(text, sizeof(text), file, line, format, ap);
    int attached;
    JNIEnv *env = thread_env(&attached);
    if (env == NULL) {
        return UCS_LOG_FUNC_RC_CONTINUE;
    }
    int taken = hand_up(env, java_level(level), text, length);
    if (attached) {
        (*java_vm)->DetachCurrentThread(java_vm);
    }
    return taken ? UCS_LOG_FUNC_RC_STOP : UCS_LOG_FUNC_RC_CONTINUE;
}

/* Resolves the logger's methods, keeps its class, and pushes the handler once; false if a method is missing. */
static jboolean java_log_install(JNIEnv *env, jclass cls, jclass receiver) {
    (void) cls;
    if (pushed) {
        __atomic_store_n(&routing, 1, __ATOMIC_RELEASE);
        return JNI_TRUE;
    }
    for (int i = 0; i < LOG_LEVELS; i++) {
        log_methods[i] = (*env)->GetStaticMethodID(env, receiver, log_method_names[i], "([B)V");
        if (log_methods[i] == NULL) {
            return JNI_FALSE;
        }
    }
    if ((*env)->GetJavaVM(env, &java_vm) != JNI_OK) {
        return JNI_FALSE;
    }
    log_class = (*env)->NewGlobalRef(env, receiver);
    if (log_class == NULL) {
        return JNI_FALSE;
    }
    __atomic_store_n(&routing, 1, __ATOMIC_RELEASE);
    handlers_before = ucs_log_num_handlers();
    ucs_log_push_handler(log_to_java);
    pushed = 1;
    return JNI_TRUE;
}

static void java_log_stop(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    __atomic_store_n(&routing, 0, __ATOMIC_RELEASE);
}

/* A warning through UCX's own dispatch, as UCX logs one: for tests of the route and for diagnostics. */
static void java_log_ucx_warning(JNIEnv *env, jclass cls, jstring message) {
    (void) cls;
    const char *text = (*env)->GetStringUTFChars(env, message, NULL);
    if (text == NULL) {
        return;
    }
    ucs_log_dispatch(__FILE__, __LINE__, __func__, UCS_LOG_LEVEL_WARN, &ucs_global_opts.log_component, "%s", text);
    (*env)->ReleaseStringUTFChars(env, message, text);
}

void nucx_log_destroy(JNIEnv *env) {
    __atomic_store_n(&routing, 0, __ATOMIC_RELEASE);
    if (pushed && ucs_log_num_handlers() == handlers_before + 1) {
        ucs_log_pop_handler();
        pushed = 0;
    }
    if (!pushed && log_class != NULL) {
        (*env)->DeleteGlobalRef(env, log_class);
        log_class = NULL;
    }
}

static const JNINativeMethod methods[] = {
    {"logInstall", "(Ljava/lang/Class;)Z", (void *) java_log_install},
    {"logStop", "()V", (void *) java_log_stop},
    {"logUcxWarning", "(Ljava/lang/String;)V", (void *) java_log_ucx_warning},
};

int nucx_register_log(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
