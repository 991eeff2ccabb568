// WebRTC's AudioProcessing with only its noise suppression enabled, behind webrtc_denoiser.h.
#include "webrtc_denoiser.h"

#include <algorithm>
#include <new>

#include "webrtc/modules/audio_processing/include/audio_processing.h"
#include "webrtc/modules/interface/module_common_types.h"

struct webrtc_denoiser {
    webrtc::AudioProcessing *processing;
    webrtc::AudioFrame frame;
    int sample_rate;
};

extern "C" int webrtc_denoiser_create(int sample_rate, int level, webrtc_denoiser **denoiser) {
    if (denoiser == nullptr) return WEBRTC_VOICE_NULL_ARGUMENT;
    if (sample_rate != 8000 && sample_rate != 16000 && sample_rate != 32000 && sample_rate != 48000)
        return WEBRTC_VOICE_UNSUPPORTED_RATE;
    if (level < 0 || level > 3) return WEBRTC_VOICE_BAD_LIKELIHOOD;
    try {
        webrtc_denoiser *made = new (std::nothrow) webrtc_denoiser();
        if (made == nullptr) return WEBRTC_VOICE_NO_MEMORY;
        made->processing = webrtc::AudioProcessing::Create();
        if (made->processing == nullptr) {
            delete made;
            return WEBRTC_VOICE_NO_MEMORY;
        }
        made->sample_rate = sample_rate;
        int code = made->processing->Initialize(
            sample_rate, sample_rate, sample_rate, webrtc::AudioProcessing::kMono,
            webrtc::AudioProcessing::kMono, webrtc::AudioProcessing::kMono);
        if (code == webrtc::AudioProcessing::kNoError)
            code = made->processing->noise_suppression()->set_level(static_cast<webrtc::NoiseSuppression::Level>(level));
        if (code == webrtc::AudioProcessing::kNoError) code = made->processing->noise_suppression()->Enable(true);
        if (code != webrtc::AudioProcessing::kNoError) {
            delete made->processing;
            delete made;
            return WEBRTC_VOICE_LIBRARY_ERROR;
        }
        *denoiser = made;
        return WEBRTC_VOICE_OK;
    } catch (...) {
        return WEBRTC_VOICE_NO_MEMORY;
    }
}

extern "C" int webrtc_denoiser_process(webrtc_denoiser *denoiser, int16_t *samples, int count) {
    if (denoiser == nullptr || samples == nullptr) return WEBRTC_VOICE_NULL_ARGUMENT;
    if (count != denoiser->sample_rate / 100) return WEBRTC_VOICE_BAD_FRAME_LENGTH;
    try {
        webrtc::AudioFrame &frame = denoiser->frame;
        frame.UpdateFrame(0, 0, samples, static_cast<size_t>(count), denoiser->sample_rate,
                          webrtc::AudioFrame::kNormalSpeech, webrtc::AudioFrame::kVadUnknown, 1);
        if (denoiser->processing->ProcessStream(&frame) != webrtc::AudioProcessing::kNoError)
            return WEBRTC_VOICE_LIBRARY_ERROR;
        std::copy(frame.data_, frame.data_ + count, samples);
        return WEBRTC_VOICE_OK;
    } catch (...) {
        return WEBRTC_VOICE_NO_MEMORY;
    }
}

extern "C" void webrtc_denoiser_destroy(webrtc_denoiser *denoiser) {
    if (denoiser == nullptr) return;
    delete denoiser->processing;
    delete denoiser;
}
