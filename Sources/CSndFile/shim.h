#ifndef VOICEMEMO_CSNDFILE_SHIM_H
#define VOICEMEMO_CSNDFILE_SHIM_H

#include <sndfile.h>

#endif
