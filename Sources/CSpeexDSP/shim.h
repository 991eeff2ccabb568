#ifndef VOICEMEMO_CSPEEXDSP_SHIM_H
#define VOICEMEMO_CSPEEXDSP_SHIM_H

/*
 * SpeexDSP (libspeexdsp-dev, BSD): its preprocessor (denoiser, AGC) for `voicememo enhance`.
 * The SPEEX_PREPROCESS_* requests are plain integer macros, which Swift imports as they are.
 */
#include <speex/speex_preprocess.h>

#endif
