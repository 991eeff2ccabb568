/// How a format survives the recording process being killed (kill -9, power loss of the process).
public enum CrashSafety: Sendable, Hashable {
    /// WAV, AIFF, CAF (PCM and companded): the writer rewrites the header (SFC_UPDATE_HEADER_NOW) whenever
    /// 0.25 s of audio has gone into the file since the last rewrite, so the file on disk is complete and
    /// correct up to at most the last 0.25 s written (and all of it after `close()`); `SoundFileRecovery`
    /// repairs the sizes of a WAV left by a killed process from the bytes on disk — an RF64's
    /// in its `ds64` chunk, and a RIFF killed just after passing 4 GiB becomes RF64.
    case headerUpdatedOnWrite
    /// FLAC, Ogg Opus: the stream is decodable up to the last complete block or page
    /// (FLAC loses under one block, Opus under one page, whose latency is set small).
    case streaming
    /// Ogg Vorbis, MP3, ALAC in CAF: libsndfile cannot keep these readable mid-stream, so samples
    /// go to a hidden W64 intermediate next to the target, from which an `IntermediateEncoding`
    /// encodes them into the target while recording (or, without one, when the writer closes);
    /// the intermediate is removed only once the target is complete, and recovery encodes it again.
    case intermediate
}
