/* The module's C API: WebRTC's voice activity detector, its noise suppression and its echo canceller. */
#include "webrtc_voice.h"
#include "webrtc_denoiser.h"
#include "webrtc_echo.h"
