// WebRTC's AudioProcessing with only its voice detection enabled, behind webrtc_voice.h.
#include "webrtc_voice.h"

#include <new>

#include "webrtc/modules/audio_processing/include/audio_processing.h"
#include "webrtc/modules/interface/module_common_types.h"

struct webrtc_voice {
    webrtc::AudioProcessing *processing;
    webrtc::AudioFrame frame;
    int sample_rate;
    int last_library_error;
};

static bool is_supported_rate(int rate) {
    return rate == 8000 || rate == 16000 || rate == 32000 || rate == 48000;
}

extern "C" int webrtc_voice_create(int sample_rate, webrtc_voice **detector) {
    if (detector == nullptr) return WEBRTC_VOICE_NULL_ARGUMENT;
    if (!is_supported_rate(sample_rate)) return WEBRTC_VOICE_UNSUPPORTED_RATE;
    try {
        webrtc_voice *made = new (std::nothrow) webrtc_voice();
        if (made == nullptr) return WEBRTC_VOICE_NO_MEMORY;
        made->processing = webrtc::AudioProcessing::Create();
        if (made->processing == nullptr) {
            delete made;
            return WEBRTC_VOICE_NO_MEMORY;
        }
        made->sample_rate = sample_rate;
        made->last_library_error = 0;
        int code = made->processing->Initialize(
            sample_rate, sample_rate, sample_rate, webrtc::AudioProcessing::kMono,
            webrtc::AudioProcessing::kMono, webrtc::AudioProcessing::kMono);
        if (code == webrtc::AudioProcessing::kNoError) code = made->processing->voice_detection()->Enable(true);
        if (code == webrtc::AudioProcessing::kNoError)
            code = made->processing->voice_detection()->set_likelihood(webrtc::VoiceDetection::kLowLikelihood);
        if (code != webrtc::AudioProcessing::kNoError) {
            delete made->processing;
            delete made;
            return WEBRTC_VOICE_LIBRARY_ERROR;
        }
        *detector = made;
        return WEBRTC_VOICE_OK;
    } catch (...) {
        return WEBRTC_VOICE_NO_MEMORY;
    }
}

extern "C" int webrtc_voice_set_likelihood(webrtc_voice *detector, int likelihood) {
    if (detector == nullptr) return WEBRTC_VOICE_NULL_ARGUMENT;
    if (likelihood < 0 || likelihood > 3) return WEBRTC_VOICE_BAD_LIKELIHOOD;
    try {
        int code = detector->processing->voice_detection()->set_likelihood(
            static_cast<webrtc::VoiceDetection::Likelihood>(likelihood));
        if (code != webrtc::AudioProcessing::kNoError) {
            detector->last_library_error = code;
            return WEBRTC_VOICE_LIBRARY_ERROR;
        }
        return WEBRTC_VOICE_OK;
    } catch (...) {
        return WEBRTC_VOICE_NO_MEMORY;
    }
}

extern "C" int webrtc_voice_process(webrtc_voice *detector, const int16_t *samples, int count, int *voiced) {
    if (detector == nullptr || samples == nullptr || voiced == nullptr) return WEBRTC_VOICE_NULL_ARGUMENT;
    if (count != detector->sample_rate / 100) return WEBRTC_VOICE_BAD_FRAME_LENGTH;
    try {
        webrtc::AudioFrame &frame = detector->frame;
        frame.UpdateFrame(0, 0, samples, static_cast<size_t>(count), detector->sample_rate,
                          webrtc::AudioFrame::kNormalSpeech, webrtc::AudioFrame::kVadUnknown, 1);
        int code = detector->processing->ProcessStream(&frame);
        if (code != webrtc::AudioProcessing::kNoError) {
            detector->last_library_error = code;
            return WEBRTC_VOICE_LIBRARY_ERROR;
        }
        *voiced = detector->processing->voice_detection()->stream_has_voice() ? 1 : 0;
        return WEBRTC_VOICE_OK;
    } catch (...) {
        return WEBRTC_VOICE_NO_MEMORY;
    }
}

extern "C" int webrtc_voice_last_library_error(const webrtc_voice *detector) {
    return detector == nullptr ? 0 : detector->last_library_error;
}

extern "C" void webrtc_voice_destroy(webrtc_voice *detector) {
    if (detector == nullptr) return;
    delete detector->processing;
    delete detector;
}
