#ifndef VOICEMEMO_CSOUNDTOUCH_SHIM_H
#define VOICEMEMO_CSOUNDTOUCH_SHIM_H

/*
 * SoundTouch (libsoundtouch-dev, LGPL-2.1) through its plain C interface, SoundTouchDLL.h
 * (libSoundTouchDll.so, linked dynamically): its C++ API needs no shim of ours this way.
 * The header defines TRUE, FALSE and DWORD for non-Windows builds; nothing of ours uses them.
 */
#include <SoundTouchDLL.h>

#endif
