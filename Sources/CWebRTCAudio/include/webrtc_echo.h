#ifndef VOICEMEMO_WEBRTC_ECHO_H
#define VOICEMEMO_WEBRTC_ECHO_H

/* A plain C face on WebRTC's echo canceller (webrtc-audio-processing 0.3, C++): create one for
 * a sample rate and a channel count, then pass it each 10 ms block of the far end (what the
 * loudspeakers play) with the near end (what the microphone hears) at the same instant; the
 * near end comes back with the far end's echo taken out. Samples are interleaved floats in
 * -1 … 1. Return codes as webrtc_voice.h's; no C++ exception crosses this boundary. */

#include <stdint.h>

#include "webrtc_voice.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The channel count is not 1 or 2. */
#define WEBRTC_ECHO_BAD_CHANNELS (-7)

typedef struct webrtc_echo_canceller webrtc_echo_canceller;

/* Creates a canceller for `sample_rate` Hz (any rate whose 10 ms is a whole number of frames, at
 * least 8000 Hz: WebRTC resamples other rates than 8, 16, 32 and 48 kHz to its own and back)
 * and `channels` channels on each side (1 or 2), suppressing what it cannot cancel at `level`:
 * 0 low, 1 moderate, 2 high. The delay between the far end and its echo is found by the
 * canceller itself (WebRTC's delay-agnostic mode, with its extended filter); drift
 * compensation is off, as both sides come from one clock. *canceller is set on
 * WEBRTC_VOICE_OK only. */
int webrtc_echo_create(int sample_rate, int channels, int level, webrtc_echo_canceller **canceller);

/* Takes one 10 ms block: `far_end` (read only) and `near_end` (cancelled in place), each
 * `frames` frames (sample_rate / 100) of the canceller's channels, interleaved. */
int webrtc_echo_process(webrtc_echo_canceller *canceller, const float *far_end, float *near_end, int frames);

/* The library's own error code of the last WEBRTC_VOICE_LIBRARY_ERROR (0 when none). */
int webrtc_echo_last_library_error(const webrtc_echo_canceller *canceller);

/* Frees the canceller; NULL is ignored. */
void webrtc_echo_destroy(webrtc_echo_canceller *canceller);

#ifdef __cplusplus
}
#endif

#endif
