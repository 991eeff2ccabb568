#include "CFFmpegLoader.h"
#include "Internal.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/*
 * FFmpeg loaded at first use (CFFmpegLoader.h says why). Each function the program calls is
 * listed once below, with the library that defines it, its return type, its parameters as the
 * header declares them, its arguments, and (for F) what it returns when FFmpeg is missing.
 * The compiler checks each definition against the header's declaration, and each pointer has
 * the header's type (__typeof__(&name)).
 *
 * Static inline functions of the headers that call into FFmpeg need no entry of their own:
 * avio_tell calls avio_seek, which is listed.
 */

/* What an int- or int64_t-returning function returns when FFmpeg could not be loaded. */
#define VM_MISSING AVERROR(ENOSYS)

/* av_strerror without FFmpeg: the code and why FFmpeg is missing. */
static int vm_strerror_missing(int errnum, char *buffer, size_t size) {
    if (buffer && size > 0) snprintf(buffer, size, "FFmpeg error %d (%s)", errnum, vm_ffmpeg_load_error());
    return VM_MISSING;
}

#define VM_FFMPEG_FUNCTIONS(F, V) \
    /* libavutil */ \
    F(av_dict_set, avutil, int, (AVDictionary **pm, const char *key, const char *value, int flags), (pm, key, value, flags), VM_MISSING) \
    F(av_dict_get, avutil, AVDictionaryEntry *, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), (m, key, prev, flags), NULL) \
    F(av_dict_copy, avutil, int, (AVDictionary **dst, const AVDictionary *src, int flags), (dst, src, flags), VM_MISSING) \
    V(av_dict_free, avutil, (AVDictionary **m), (m)) \
    F(av_malloc, avutil, void *, (size_t size), (size), NULL) \
    V(av_free, avutil, (void *ptr), (ptr)) \
    V(av_freep, avutil, (void *ptr), (ptr)) \
    F(av_rescale, avutil, int64_t, (int64_t a, int64_t b, int64_t c), (a, b, c), VM_MISSING) \
    F(av_rescale_q, avutil, int64_t, (int64_t a, AVRational bq, AVRational cq), (a, bq, cq), VM_MISSING) \
    F(av_strerror, avutil, int, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size), \
        vm_strerror_missing(errnum, errbuf, errbuf_size)) \
    F(av_opt_get, avutil, int, (void *obj, const char *name, int search_flags, uint8_t **out_val), (obj, name, search_flags, out_val), VM_MISSING) \
    V(av_log_set_level, avutil, (int level), (level)) \
    V(av_log_set_callback, avutil, (void (*callback)(void *, int, const char *, va_list)), (callback)) \
    V(av_vlog, avutil, (void *avcl, int level, const char *fmt, va_list vl), (avcl, level, fmt, vl)) \
    V(av_channel_layout_default, avutil, (AVChannelLayout *ch_layout, int nb_channels), (ch_layout, nb_channels)) \
    F(av_channel_layout_copy, avutil, int, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src), VM_MISSING) \
    V(av_channel_layout_uninit, avutil, (AVChannelLayout *channel_layout), (channel_layout)) \
    F(av_frame_alloc, avutil, AVFrame *, (void), (), NULL) \
    V(av_frame_free, avutil, (AVFrame **frame), (frame)) \
    V(av_frame_unref, avutil, (AVFrame *frame), (frame)) \
    F(av_frame_get_buffer, avutil, int, (AVFrame *frame, int align), (frame, align), VM_MISSING) \
    F(av_frame_make_writable, avutil, int, (AVFrame *frame), (frame), VM_MISSING) \
    /* libswresample */ \
    F(swr_alloc_set_opts2, swresample, int, (struct SwrContext **ps, AVChannelLayout *out_ch_layout, \
        enum AVSampleFormat out_sample_fmt, int out_sample_rate, AVChannelLayout *in_ch_layout, \
        enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx), \
        (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, \
        log_offset, log_ctx), VM_MISSING) \
    F(swr_init, swresample, int, (struct SwrContext *s), (s), VM_MISSING) \
    F(swr_convert, swresample, int, (struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in, \
        int in_count), (s, out, out_count, in, in_count), VM_MISSING) \
    F(swr_get_out_samples, swresample, int, (struct SwrContext *s, int in_samples), (s, in_samples), VM_MISSING) \
    V(swr_free, swresample, (struct SwrContext **s), (s)) \
    /* libavcodec */ \
    F(avcodec_find_encoder, avcodec, const AVCodec *, (enum AVCodecID id), (id), NULL) \
    F(avcodec_get_name, avcodec, const char *, (enum AVCodecID id), (id), "unknown_codec") \
    F(avcodec_alloc_context3, avcodec, AVCodecContext *, (const AVCodec *codec), (codec), NULL) \
    V(avcodec_free_context, avcodec, (AVCodecContext **avctx), (avctx)) \
    F(avcodec_open2, avcodec, int, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), \
        (avctx, codec, options), VM_MISSING) \
    F(avcodec_parameters_from_context, avcodec, int, (AVCodecParameters *par, const AVCodecContext *codec), \
        (par, codec), VM_MISSING) \
    F(avcodec_parameters_to_context, avcodec, int, (AVCodecContext *codec, const AVCodecParameters *par), \
        (codec, par), VM_MISSING) \
    F(avcodec_parameters_copy, avcodec, int, (AVCodecParameters *dst, const AVCodecParameters *src), (dst, src), VM_MISSING) \
    F(avcodec_send_packet, avcodec, int, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt), VM_MISSING) \
    F(avcodec_receive_frame, avcodec, int, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame), VM_MISSING) \
    F(avcodec_send_frame, avcodec, int, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame), VM_MISSING) \
    F(avcodec_receive_packet, avcodec, int, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt), VM_MISSING) \
    V(avcodec_flush_buffers, avcodec, (AVCodecContext *avctx), (avctx)) \
    F(av_packet_alloc, avcodec, AVPacket *, (void), (), NULL) \
    V(av_packet_free, avcodec, (AVPacket **pkt), (pkt)) \
    V(av_packet_unref, avcodec, (AVPacket *pkt), (pkt)) \
    V(av_packet_rescale_ts, avcodec, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst)) \
    /* libavformat */ \
    F(avformat_alloc_context, avformat, AVFormatContext *, (void), (), NULL) \
    F(avformat_alloc_output_context2, avformat, int, (AVFormatContext **ctx, const AVOutputFormat *oformat, \
        const char *format_name, const char *filename), (ctx, oformat, format_name, filename), VM_MISSING) \
    V(avformat_free_context, avformat, (AVFormatContext *s), (s)) \
    F(avformat_open_input, avformat, int, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, \
        AVDictionary **options), (ps, url, fmt, options), VM_MISSING) \
    V(avformat_close_input, avformat, (AVFormatContext **s), (s)) \
    F(avformat_find_stream_info, avformat, int, (AVFormatContext *ic, AVDictionary **options), (ic, options), VM_MISSING) \
    F(avformat_new_stream, avformat, AVStream *, (AVFormatContext *s, const AVCodec *c), (s, c), NULL) \
    F(avformat_write_header, avformat, int, (AVFormatContext *s, AVDictionary **options), (s, options), VM_MISSING) \
    F(av_find_input_format, avformat, const AVInputFormat *, (const char *short_name), (short_name), NULL) \
    F(av_find_best_stream, avformat, int, (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, \
        int related_stream, const AVCodec **decoder_ret, int flags), \
        (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags), VM_MISSING) \
    F(av_read_frame, avformat, int, (AVFormatContext *s, AVPacket *pkt), (s, pkt), VM_MISSING) \
    F(av_seek_frame, avformat, int, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags), \
        (s, stream_index, timestamp, flags), VM_MISSING) \
    F(av_interleaved_write_frame, avformat, int, (AVFormatContext *s, AVPacket *pkt), (s, pkt), VM_MISSING) \
    F(av_write_trailer, avformat, int, (AVFormatContext *s), (s), VM_MISSING) \
    F(avio_open, avformat, int, (AVIOContext **s, const char *url, int flags), (s, url, flags), VM_MISSING) \
    F(avio_open2, avformat, int, (AVIOContext **s, const char *url, int flags, const AVIOInterruptCB *int_cb, \
        AVDictionary **options), (s, url, flags, int_cb, options), VM_MISSING) \
    F(avio_closep, avformat, int, (AVIOContext **s), (s), VM_MISSING) \
    F(avio_alloc_context, avformat, AVIOContext *, (unsigned char *buffer, int buffer_size, int write_flag, \
        void *opaque, int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), \
        int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), \
        int64_t (*seek)(void *opaque, int64_t offset, int whence)), \
        (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek), NULL) \
    V(avio_context_free, avformat, (AVIOContext **s), (s)) \
    F(avio_read_partial, avformat, int, (AVIOContext *s, unsigned char *buf, int size), (s, buf, size), VM_MISSING) \
    F(avio_seek, avformat, int64_t, (AVIOContext *s, int64_t offset, int whence), (s, offset, whence), VM_MISSING) \
    F(avio_size, avformat, int64_t, (AVIOContext *s), (s), VM_MISSING)

/* The real functions, once loaded. */
#define VM_POINTER(name, ...) static __typeof__(&name) real_##name;
VM_FFMPEG_FUNCTIONS(VM_POINTER, VM_POINTER)

/* The libraries, in the order they depend on one another, by the headers' major versions. */
enum { VM_avutil, VM_swresample, VM_avcodec, VM_avformat, VM_LIBRARIES };
static const char *const library_names[VM_LIBRARIES] = {
    "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libswresample.so." AV_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR),
    "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
};

/* Each function's name, its library, and where its pointer goes. */
static const struct {
    const char *name;
    int library;
    void **pointer;
} functions[] = {
#define VM_ENTRY(name, library, ...) {#name, VM_##library, (void **)&real_##name},
    VM_FFMPEG_FUNCTIONS(VM_ENTRY, VM_ENTRY)
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_status = -1;
static char load_error[512];

/* Opens the libraries, resolves every function, installs the log; run once (pthread_once). */
static void load(void) {
    void *handles[VM_LIBRARIES];
    for (int library = 0; library < VM_LIBRARIES; library++) {
        handles[library] = dlopen(library_names[library], RTLD_NOW | RTLD_LOCAL);
        if (!handles[library]) {
            const char *reason = dlerror();
            snprintf(load_error, sizeof load_error, "%s", reason ? reason : library_names[library]);
            return;
        }
    }
    for (size_t index = 0; index < sizeof functions / sizeof functions[0]; index++) {
        *functions[index].pointer = dlsym(handles[functions[index].library], functions[index].name);
        if (!*functions[index].pointer) {
            snprintf(load_error, sizeof load_error, "%s has no %s",
                library_names[functions[index].library], functions[index].name);
            return;
        }
    }
    /* Trace level, so http.c reports its header lines to the callback. */
    real_av_log_set_level(AV_LOG_TRACE);
    real_av_log_set_callback(vm_log_callback);
    load_status = 0;
}

int vm_ffmpeg_load(void) {
    pthread_once(&load_once, load);
    return load_status;
}

const char *vm_ffmpeg_load_error(void) {
    return load_error;
}

/* The definitions: hidden, so the FFmpeg libraries themselves never bind to them. */
#define VM_HIDDEN __attribute__((visibility("hidden")))
#define VM_FORWARD(name, library, type, parameters, arguments, missing) \
    VM_HIDDEN type name parameters { return vm_ffmpeg_load() == 0 ? real_##name arguments : missing; }
#define VM_FORWARD_VOID(name, library, parameters, arguments) \
    VM_HIDDEN void name parameters { if (vm_ffmpeg_load() == 0) real_##name arguments; }
VM_FFMPEG_FUNCTIONS(VM_FORWARD, VM_FORWARD_VOID)
