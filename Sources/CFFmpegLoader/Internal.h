#ifndef VOICEMEMO_CFFMPEGLOADER_INTERNAL_H
#define VOICEMEMO_CFFMPEGLOADER_INTERNAL_H

/* What Loader.c and Log.c share, not exported to Swift. */
#include <stdarg.h>

/* FFmpeg's log callback (Log.c), which Loader.c installs right after loading FFmpeg. */
__attribute__((visibility("hidden")))
void vm_log_callback(void *context, int level, const char *format, va_list arguments);

#endif
