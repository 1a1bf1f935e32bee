// The gzip and bzip2 decoders of the Matrix Market reader, and the choice among them from
// the first bytes (see byte_source.hpp).
#include "io/byte_source.hpp"

#if KIT_HAVE_ZLIB
#include <zlib.h>
#endif
#if KIT_HAVE_BZIP2
#include <bzlib.h>
#endif

#include "core/kit_error.hpp"

namespace kit {
namespace detail {
namespace {

#if KIT_HAVE_ZLIB
/// gzip (several members, as `cat a.gz b.gz` makes, read as one stream).
class GzipSource : public ByteSource {
public:
    explicit GzipSource(ByteSource& raw) : raw_(raw), in_(kChunk) {
        if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) throw SourceError("zlib could not start");
    }
    ~GzipSource() override { inflateEnd(&z_); }
    std::size_t read(char* dst, std::size_t n) override {
        z_.next_out = reinterpret_cast<Bytef*>(dst);
        z_.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
        while (z_.avail_out > 0 && !done_) {
            if (z_.avail_in == 0) {
                const std::size_t got = raw_.read(in_.data(), in_.size());
                if (got == 0) {
                    if (!at_member_start_) throw SourceError("gzip data ends early (truncated download?)");
                    done_ = true;
                    break;
                }
                z_.next_in = reinterpret_cast<Bytef*>(in_.data());
                z_.avail_in = static_cast<uInt>(got);
            }
            at_member_start_ = false;
            const int rc = inflate(&z_, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                inflateReset(&z_);
                at_member_start_ = true;
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                throw SourceError(std::string("gzip data is corrupt (") + (z_.msg ? z_.msg : "zlib error") +
                                  "); check the download");
            }
        }
        return n - z_.avail_out;
    }

private:
    ByteSource& raw_;
    std::vector<char> in_;
    z_stream z_{};
    bool at_member_start_ = true;
    bool done_ = false;
};
#endif

#if KIT_HAVE_BZIP2
/// bzip2 (several streams, as pbzip2 writes, read as one).
class Bzip2Source : public ByteSource {
public:
    explicit Bzip2Source(ByteSource& raw) : raw_(raw), in_(kChunk) { start(); }
    ~Bzip2Source() override { BZ2_bzDecompressEnd(&bz_); }
    std::size_t read(char* dst, std::size_t n) override {
        bz_.next_out = dst;
        bz_.avail_out = static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30));
        while (bz_.avail_out > 0 && !done_) {
            if (bz_.avail_in == 0) {
                const std::size_t got = raw_.read(in_.data(), in_.size());
                if (got == 0) {
                    if (!at_stream_start_) throw SourceError("bzip2 data ends early (truncated download?)");
                    done_ = true;
                    break;
                }
                bz_.next_in = in_.data();
                bz_.avail_in = static_cast<unsigned>(got);
            }
            at_stream_start_ = false;
            const int rc = BZ2_bzDecompress(&bz_);
            if (rc == BZ_STREAM_END) {
                // keep the unread input across the restart
                char* next = bz_.next_in;
                const unsigned avail = bz_.avail_in;
                char* out = bz_.next_out;
                const unsigned out_avail = bz_.avail_out;
                BZ2_bzDecompressEnd(&bz_);
                start();
                bz_.next_in = next;
                bz_.avail_in = avail;
                bz_.next_out = out;
                bz_.avail_out = out_avail;
                at_stream_start_ = true;
            } else if (rc != BZ_OK) {
                throw SourceError("bzip2 data is corrupt (error " + std::to_string(rc) + "); check the download");
            }
        }
        return n - bz_.avail_out;
    }

private:
    void start() {
        bz_ = bz_stream{};
        if (BZ2_bzDecompressInit(&bz_, 0, 0) != BZ_OK) throw SourceError("libbz2 could not start");
    }
    ByteSource& raw_;
    std::vector<char> in_;
    bz_stream bz_{};
    bool at_stream_start_ = true;
    bool done_ = false;
};
#endif

}  // namespace

std::unique_ptr<ByteSource> open_decoder(const char* head, std::size_t have, ByteSource& src, const std::string& name,
                                         std::string& compression) {
    const auto starts = [&](const char* magic, std::size_t n) { return have >= n && std::memcmp(head, magic, n) == 0; };
    compression = "none";
    if (starts("\x1f\x8b", 2)) {
#if KIT_HAVE_ZLIB
        compression = "gzip";
        return std::make_unique<GzipSource>(src);
#else
        throw InputError(name, 1,
                         "gzip-compressed input, but this build has no zlib: install zlib1g-dev and "
                         "rebuild (make deps; make), or decompress it first (gunzip -k FILE)");
#endif
    }
    if (starts("BZh", 3) && have >= 4 && head[3] >= '1' && head[3] <= '9') {
#if KIT_HAVE_BZIP2
        compression = "bzip2";
        return std::make_unique<Bzip2Source>(src);
#else
        throw InputError(name, 1,
                         "bzip2-compressed input, but this build has no libbz2: install libbz2-dev and "
                         "rebuild (make deps; make), or decompress it first (bunzip2 -k FILE)");
#endif
    }
    if (starts("\xfd"
               "7zXZ",
               6))
        throw InputError(name, 1, "xz-compressed input: decompress it first (xz -dk FILE)");
    if (starts("\x28\xb5\x2f\xfd", 4))
        throw InputError(name, 1, "zstd-compressed input: decompress it first (zstd -d FILE)");
    return nullptr;
}

}  // namespace detail
}  // namespace kit
