// WebRTC's AudioProcessing with only its echo canceller enabled, behind webrtc_echo.h.
#include "webrtc_echo.h"

#include <new>
#include <vector>

#include "webrtc/modules/audio_processing/include/audio_processing.h"

struct webrtc_echo_canceller {
    webrtc::AudioProcessing *processing;
    webrtc::StreamConfig stream;
    int channels;
    int frames;
    int last_library_error;
    // One buffer per channel and side, deinterleaved, allocated at creation.
    std::vector<std::vector<float>> far_end;
    std::vector<std::vector<float>> near_end;
    std::vector<float *> far_pointers;
    std::vector<float *> near_pointers;
};

static void destroy(webrtc_echo_canceller *canceller) {
    delete canceller->processing;
    delete canceller;
}

extern "C" int webrtc_echo_create(int sample_rate, int channels, int level, webrtc_echo_canceller **canceller) {
    if (canceller == nullptr) return WEBRTC_VOICE_NULL_ARGUMENT;
    if (sample_rate < 8000 || sample_rate % 100 != 0) return WEBRTC_VOICE_UNSUPPORTED_RATE;
    if (channels < 1 || channels > 2) return WEBRTC_ECHO_BAD_CHANNELS;
    if (level < 0 || level > 2) return WEBRTC_VOICE_BAD_LIKELIHOOD;
    try {
        webrtc_echo_canceller *made = new (std::nothrow) webrtc_echo_canceller();
        if (made == nullptr) return WEBRTC_VOICE_NO_MEMORY;
        webrtc::Config config;
        config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(true));
        config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(true));
        made->processing = webrtc::AudioProcessing::Create(config);
        if (made->processing == nullptr) {
            delete made;
            return WEBRTC_VOICE_NO_MEMORY;
        }
        made->stream = webrtc::StreamConfig(sample_rate, channels);
        made->channels = channels;
        made->frames = sample_rate / 100;
        made->last_library_error = 0;
        made->far_end.assign(channels, std::vector<float>(made->frames));
        made->near_end.assign(channels, std::vector<float>(made->frames));
        for (int channel = 0; channel < channels; channel++) {
            made->far_pointers.push_back(made->far_end[channel].data());
            made->near_pointers.push_back(made->near_end[channel].data());
        }
        webrtc::ProcessingConfig streams = {{made->stream, made->stream, made->stream, made->stream}};
        webrtc::EchoCancellation *echo = made->processing->echo_cancellation();
        int code = made->processing->Initialize(streams);
        if (code == webrtc::AudioProcessing::kNoError) code = echo->enable_drift_compensation(false);
        if (code == webrtc::AudioProcessing::kNoError)
            code = echo->set_suppression_level(static_cast<webrtc::EchoCancellation::SuppressionLevel>(level));
        if (code == webrtc::AudioProcessing::kNoError) code = echo->Enable(true);
        if (code != webrtc::AudioProcessing::kNoError) {
            destroy(made);
            return code == webrtc::AudioProcessing::kBadSampleRateError ? WEBRTC_VOICE_UNSUPPORTED_RATE
                                                                      : WEBRTC_VOICE_LIBRARY_ERROR;
        }
        *canceller = made;
        return WEBRTC_VOICE_OK;
    } catch (...) {
        return WEBRTC_VOICE_NO_MEMORY;
    }
}

extern "C" int webrtc_echo_process(webrtc_echo_canceller *canceller, const float *far_end, float *near_end, int frames) {
    if (canceller == nullptr || far_end == nullptr || near_end == nullptr) return WEBRTC_VOICE_NULL_ARGUMENT;
    if (frames != canceller->frames) return WEBRTC_VOICE_BAD_FRAME_LENGTH;
    const int channels = canceller->channels;
    for (int frame = 0; frame < frames; frame++) {
        for (int channel = 0; channel < channels; channel++) {
            canceller->far_end[channel][frame] = far_end[frame * channels + channel];
            canceller->near_end[channel][frame] = near_end[frame * channels + channel];
        }
    }
    try {
        float *const *far = canceller->far_pointers.data();
        float *const *near = canceller->near_pointers.data();
        int code = canceller->processing->ProcessReverseStream(far, canceller->stream, canceller->stream, far);
        // Both sides are read at the same instant of one server clock: the echo's own delay
        // (the loudspeakers' latency and the room) is left to the delay-agnostic estimate.
        if (code == webrtc::AudioProcessing::kNoError) code = canceller->processing->set_stream_delay_ms(0);
        if (code == webrtc::AudioProcessing::kNoError)
            code = canceller->processing->ProcessStream(near, canceller->stream, canceller->stream, near);
        if (code != webrtc::AudioProcessing::kNoError) {
            canceller->last_library_error = code;
            return WEBRTC_VOICE_LIBRARY_ERROR;
        }
    } catch (...) {
        return WEBRTC_VOICE_NO_MEMORY;
    }
    for (int frame = 0; frame < frames; frame++) {
        for (int channel = 0; channel < channels; channel++)
            near_end[frame * channels + channel] = canceller->near_end[channel][frame];
    }
    return WEBRTC_VOICE_OK;
}

extern "C" int webrtc_echo_last_library_error(const webrtc_echo_canceller *canceller) {
    return canceller == nullptr ? 0 : canceller->last_library_error;
}

extern "C" void webrtc_echo_destroy(webrtc_echo_canceller *canceller) {
    if (canceller == nullptr) return;
    destroy(canceller);
}
