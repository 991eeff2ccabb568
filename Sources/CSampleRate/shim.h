#ifndef VOICEMEMO_CSAMPLERATE_SHIM_H
#define VOICEMEMO_CSAMPLERATE_SHIM_H

#include <samplerate.h>

#endif
