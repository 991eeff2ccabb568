/* The module's C API: WebRTC's voice activity detector and its noise suppression. */
#include "webrtc_voice.h"
#include "webrtc_denoiser.h"
