#ifndef VOICEMEMO_CPULSELOADER_H
#define VOICEMEMO_CPULSELOADER_H

/*
 * libpulse, the client library of PulseAudio and of PipeWire's pipewire-pulse, loaded at first
 * use. The program does not link libpulse: Loader.c defines every pa_* function the program
 * calls (hidden, so only this program's code binds to them; the ALSA pulse plugin keeps its
 * own), each forwarding to the real one, which the first call loads with dlopen (libpulse.so.0),
 * so the binary itself names no libpulse among what it needs, and a start that reaches no
 * sound server loads none of it (nor the X11 and systemd client libraries it brings). When it
 * cannot be loaded, each forwarding function
 * fails (NULL, a negative code, PA_CONTEXT_FAILED, or nothing) instead of crashing.
 */
#include <pulse/context.h>
#include <pulse/def.h>
#include <pulse/error.h>
#include <pulse/introspect.h>
#include <pulse/mainloop.h>
#include <pulse/operation.h>
#include <pulse/sample.h>
#include <pulse/stream.h>
#include <pulse/volume.h>
#include <stdint.h>

/* Loads libpulse, once per process (thread-safe). Returns 0 when it is loaded, -1 when it or
   one of its functions is missing. */
int vm_pulse_load(void);

/* Why the load failed, naming the library ("libpulse.so.0: cannot open shared object file: No
   such file or directory"); "" after a load that succeeded or before the first. */
const char *vm_pulse_load_error(void);

/* PA_INVALID_INDEX, a cast Swift does not import. */
static inline uint32_t vm_pulse_invalid_index(void) { return PA_INVALID_INDEX; }

/* PA_VOLUME_NORM (100 %, 0 dB), a cast Swift does not import. */
static inline pa_volume_t vm_pulse_volume_norm(void) { return PA_VOLUME_NORM; }

#endif
