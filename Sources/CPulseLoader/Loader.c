#include "CPulseLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/*
 * libpulse loaded at first use (CPulseLoader.h says why). Each function the program calls is
 * listed once below, with the library that defines it, its return type, its parameters as the
 * header declares them, its arguments, and (for F) what it returns when libpulse is missing.
 * The compiler checks each definition against the header's declaration, and each pointer has
 * the header's type (__typeof__(&name)).
 */

/* pa_strerror without libpulse: why it is missing. */
static const char *vm_strerror_missing(int error) {
    (void)error;
    return vm_pulse_load_error();
}

#define VM_PULSE_FUNCTIONS(F, V) \
    /* libpulse: the main loop */ \
    F(pa_mainloop_new, pulse, pa_mainloop *, (void), (), NULL) \
    V(pa_mainloop_free, pulse, (pa_mainloop *m), (m)) \
    F(pa_mainloop_get_api, pulse, pa_mainloop_api *, (pa_mainloop *m), (m), NULL) \
    F(pa_mainloop_prepare, pulse, int, (pa_mainloop *m, int timeout), (m, timeout), -1) \
    F(pa_mainloop_poll, pulse, int, (pa_mainloop *m), (m), -1) \
    F(pa_mainloop_dispatch, pulse, int, (pa_mainloop *m), (m), -1) \
    /* libpulse: the connection */ \
    F(pa_context_new, pulse, pa_context *, (pa_mainloop_api *mainloop, const char *name), (mainloop, name), NULL) \
    V(pa_context_unref, pulse, (pa_context *c), (c)) \
    F(pa_context_connect, pulse, int, (pa_context *c, const char *server, pa_context_flags_t flags, \
        const pa_spawn_api *api), (c, server, flags, api), -1) \
    V(pa_context_disconnect, pulse, (pa_context *c), (c)) \
    F(pa_context_get_state, pulse, pa_context_state_t, (const pa_context *c), (c), PA_CONTEXT_FAILED) \
    F(pa_context_errno, pulse, int, (const pa_context *c), (c), PA_ERR_NOTSUPPORTED) \
    F(pa_context_get_server, pulse, const char *, (const pa_context *c), (c), NULL) \
    /* libpulse: what the server has */ \
    F(pa_context_get_server_info, pulse, pa_operation *, (pa_context *c, pa_server_info_cb_t cb, void *userdata), \
        (c, cb, userdata), NULL) \
    F(pa_context_get_source_info_list, pulse, pa_operation *, (pa_context *c, pa_source_info_cb_t cb, void *userdata), \
        (c, cb, userdata), NULL) \
    F(pa_context_get_sink_info_list, pulse, pa_operation *, (pa_context *c, pa_sink_info_cb_t cb, void *userdata), \
        (c, cb, userdata), NULL) \
    F(pa_context_get_source_info_by_name, pulse, pa_operation *, (pa_context *c, const char *name, \
        pa_source_info_cb_t cb, void *userdata), (c, name, cb, userdata), NULL) \
    /* libpulse: a source's volume and mute */ \
    F(pa_context_set_source_volume_by_name, pulse, pa_operation *, (pa_context *c, const char *name, \
        const pa_cvolume *volume, pa_context_success_cb_t cb, void *userdata), (c, name, volume, cb, userdata), NULL) \
    F(pa_context_set_source_mute_by_name, pulse, pa_operation *, (pa_context *c, const char *name, int mute, \
        pa_context_success_cb_t cb, void *userdata), (c, name, mute, cb, userdata), NULL) \
    F(pa_cvolume_max, pulse, pa_volume_t, (const pa_cvolume *a), (a), PA_VOLUME_MUTED) \
    F(pa_cvolume_scale, pulse, pa_cvolume *, (pa_cvolume *v, pa_volume_t max), (v, max), v) \
    F(pa_sw_volume_to_dB, pulse, double, (pa_volume_t v), (v), PA_DECIBEL_MININFTY) \
    F(pa_sw_volume_from_dB, pulse, pa_volume_t, (double f), (f), PA_VOLUME_MUTED) \
    F(pa_operation_get_state, pulse, pa_operation_state_t, (const pa_operation *o), (o), PA_OPERATION_CANCELLED) \
    V(pa_operation_unref, pulse, (pa_operation *o), (o)) \
    F(pa_strerror, pulse, const char *, (int error), (error), vm_strerror_missing(error)) \
    /* libpulse: a record stream */ \
    F(pa_stream_new, pulse, pa_stream *, (pa_context *c, const char *name, const pa_sample_spec *ss, \
        const pa_channel_map *map), (c, name, ss, map), NULL) \
    V(pa_stream_unref, pulse, (pa_stream *s), (s)) \
    F(pa_stream_connect_record, pulse, int, (pa_stream *s, const char *dev, const pa_buffer_attr *attr, \
        pa_stream_flags_t flags), (s, dev, attr, flags), -1) \
    F(pa_stream_disconnect, pulse, int, (pa_stream *s), (s), -1) \
    F(pa_stream_get_state, pulse, pa_stream_state_t, (const pa_stream *p), (p), PA_STREAM_FAILED) \
    F(pa_stream_peek, pulse, int, (pa_stream *p, const void **data, size_t *nbytes), (p, data, nbytes), -1) \
    F(pa_stream_drop, pulse, int, (pa_stream *p), (p), -1) \
    F(pa_stream_cork, pulse, pa_operation *, (pa_stream *s, int b, pa_stream_success_cb_t cb, void *userdata), \
        (s, b, cb, userdata), NULL) \
    F(pa_stream_get_device_name, pulse, const char *, (const pa_stream *s), (s), NULL) \
    /* libpulse: a playback stream */ \
    F(pa_stream_connect_playback, pulse, int, (pa_stream *s, const char *dev, const pa_buffer_attr *attr, \
        pa_stream_flags_t flags, const pa_cvolume *volume, pa_stream *sync_stream), \
        (s, dev, attr, flags, volume, sync_stream), -1) \
    F(pa_stream_writable_size, pulse, size_t, (const pa_stream *p), (p), (size_t)-1) \
    F(pa_stream_write, pulse, int, (pa_stream *p, const void *data, size_t nbytes, pa_free_cb_t free_cb, \
        int64_t offset, pa_seek_mode_t seek), (p, data, nbytes, free_cb, offset, seek), -1) \
    F(pa_stream_get_latency, pulse, int, (pa_stream *s, pa_usec_t *r_usec, int *negative), \
        (s, r_usec, negative), -1) \
    F(pa_stream_flush, pulse, pa_operation *, (pa_stream *s, pa_stream_success_cb_t cb, void *userdata), \
        (s, cb, userdata), NULL) \
    F(pa_stream_drain, pulse, pa_operation *, (pa_stream *s, pa_stream_success_cb_t cb, void *userdata), \
        (s, cb, userdata), NULL) \
    V(pa_stream_set_underflow_callback, pulse, (pa_stream *p, pa_stream_notify_cb_t cb, void *userdata), \
        (p, cb, userdata))

/* The real functions, once loaded. */
#define VM_POINTER(name, ...) static __typeof__(&name) real_##name;
VM_PULSE_FUNCTIONS(VM_POINTER, VM_POINTER)

/* The library. */
enum { VM_pulse, VM_LIBRARIES };
static const char *const library_names[VM_LIBRARIES] = {"libpulse.so.0"};

/* Each function's name, its library, and where its pointer goes. */
static const struct {
    const char *name;
    int library;
    void **pointer;
} functions[] = {
#define VM_ENTRY(name, library, ...) {#name, VM_##library, (void **)&real_##name},
    VM_PULSE_FUNCTIONS(VM_ENTRY, VM_ENTRY)
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[512];

/* Opens the library and resolves every function; run once (pthread_once). */
static void load(void) {
    void *handles[VM_LIBRARIES];
    for (int library = 0; library < VM_LIBRARIES; library++) {
        handles[library] = dlopen(library_names[library], RTLD_NOW | RTLD_LOCAL);
        if (!handles[library]) {
            const char *reason = dlerror();
            snprintf(load_error, sizeof load_error, "%s", reason ? reason : library_names[library]);
            return;
        }
    }
    for (size_t index = 0; index < sizeof functions / sizeof functions[0]; index++) {
        *functions[index].pointer = dlsym(handles[functions[index].library], functions[index].name);
        if (!*functions[index].pointer) {
            snprintf(load_error, sizeof load_error, "%s has no %s",
                library_names[functions[index].library], functions[index].name);
            return;
        }
    }
    load_status = 0;
}

int vm_pulse_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *vm_pulse_load_error(void) {
    return load_error;
}

/* The definitions: hidden, so libpulse's other users in the process never bind to them. */
#define VM_HIDDEN __attribute__((visibility("hidden")))
#define VM_FORWARD(name, library, type, parameters, arguments, missing) \
    VM_HIDDEN type name parameters { return vm_pulse_load() == 0 ? real_##name arguments : missing; }
#define VM_FORWARD_VOID(name, library, parameters, arguments) \
    VM_HIDDEN void name parameters { if (vm_pulse_load() == 0) real_##name arguments; }
VM_PULSE_FUNCTIONS(VM_FORWARD, VM_FORWARD_VOID)
