#ifndef VOICEMEMO_CEBUR128_SHIM_H
#define VOICEMEMO_CEBUR128_SHIM_H

/*
 * libebur128 (libebur128-dev, MIT): EBU R 128 loudness, loudness range and true peak, the peer
 * `voicememo-bench ebur128` measures Metering against. The bench alone links it, never the
 * product. The EBUR128_MODE_* and channel values are enum constants, which Swift imports as
 * they are.
 */
#include <ebur128.h>

#endif
