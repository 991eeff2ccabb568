#ifndef VOICEMEMO_WEBRTC_VOICE_H
#define VOICEMEMO_WEBRTC_VOICE_H

/* A plain C face on WebRTC's voice activity detector (webrtc-audio-processing 0.3, C++):
 * create one for a sample rate, feed it 10 ms frames of mono int16 samples, read whether
 * each frame is voiced. Every call returns a code; no C++ exception crosses this boundary. */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The return codes. */
#define WEBRTC_VOICE_OK 0
/* The sample rate is not 8000, 16000, 32000 or 48000 Hz. */
#define WEBRTC_VOICE_UNSUPPORTED_RATE (-1)
/* The frame is not 10 ms at the detector's rate. */
#define WEBRTC_VOICE_BAD_FRAME_LENGTH (-2)
/* The likelihood is not 0 (very low) to 3 (high). */
#define WEBRTC_VOICE_BAD_LIKELIHOOD (-3)
/* Memory ran out (or the library threw). */
#define WEBRTC_VOICE_NO_MEMORY (-4)
/* A null pointer was passed. */
#define WEBRTC_VOICE_NULL_ARGUMENT (-5)
/* The library refused: the code it returned is kept (webrtc_voice_last_library_error). */
#define WEBRTC_VOICE_LIBRARY_ERROR (-6)

typedef struct webrtc_voice webrtc_voice;

/* Creates a detector for `sample_rate` Hz; *detector is set on WEBRTC_VOICE_OK only. */
int webrtc_voice_create(int sample_rate, webrtc_voice **detector);

/* Sets how readily a frame is called voiced: 0 very low (fewest noise frames) … 3 high. */
int webrtc_voice_set_likelihood(webrtc_voice *detector, int likelihood);

/* Judges one 10 ms frame (`count` must be sample_rate / 100): *voiced is 1 or 0. */
int webrtc_voice_process(webrtc_voice *detector, const int16_t *samples, int count, int *voiced);

/* The library's own error code of the last WEBRTC_VOICE_LIBRARY_ERROR (0 when none). */
int webrtc_voice_last_library_error(const webrtc_voice *detector);

/* Frees the detector; NULL is ignored. */
void webrtc_voice_destroy(webrtc_voice *detector);

#ifdef __cplusplus
}
#endif

#endif
