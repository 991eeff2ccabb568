#ifndef VOICEMEMO_WEBRTC_DENOISER_H
#define VOICEMEMO_WEBRTC_DENOISER_H

/* A plain C face on WebRTC's noise suppression (webrtc-audio-processing 0.3, C++): create one
 * for a sample rate and a level, pass it 10 ms frames of mono int16 samples, which it denoises
 * in place. Return codes as webrtc_voice.h's; no C++ exception crosses this boundary. */

#include <stdint.h>

#include "webrtc_voice.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct webrtc_denoiser webrtc_denoiser;

/* Creates a denoiser for `sample_rate` Hz (8000, 16000, 32000 or 48000) at `level`: 0 low,
 * 1 moderate, 2 high, 3 very high; *denoiser is set on WEBRTC_VOICE_OK only. */
int webrtc_denoiser_create(int sample_rate, int level, webrtc_denoiser **denoiser);

/* Denoises one 10 ms frame in place (`count` must be sample_rate / 100). */
int webrtc_denoiser_process(webrtc_denoiser *denoiser, int16_t *samples, int count);

/* Frees the denoiser; NULL is ignored. */
void webrtc_denoiser_destroy(webrtc_denoiser *denoiser);

#ifdef __cplusplus
}
#endif

#endif
