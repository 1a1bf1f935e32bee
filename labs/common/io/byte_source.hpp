/// @file byte_source.hpp
/// @brief Where the Matrix Market reader's bytes come from: a file descriptor, a stream, a
/// buffer, and the gzip and bzip2 decoders over any of them. Internal to io/.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <istream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace kit {
namespace detail {

/// Bytes the reader asks a source for at a time (and the decoders' input buffer).
constexpr std::size_t kChunk = std::size_t{1} << 18;

/// A failure below the line reader (I/O, corrupt compressed data); the reader adds FILE:LINE.
struct SourceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Where the bytes come from. read() returns 0 only at the end.
class ByteSource {
public:
    virtual ~ByteSource() = default;
    virtual std::size_t read(char* dst, std::size_t n) = 0;
};

class FdSource : public ByteSource {
public:
    explicit FdSource(int fd) : fd_(fd) {}
    ~FdSource() override { ::close(fd_); }
    std::size_t read(char* dst, std::size_t n) override {
        for (;;) {
            const ssize_t got = ::read(fd_, dst, n);
            if (got >= 0) return static_cast<std::size_t>(got);
            if (errno != EINTR) throw SourceError(std::string("read failed: ") + std::strerror(errno));
        }
    }

private:
    int fd_;
};

class StreamSource : public ByteSource {
public:
    explicit StreamSource(std::istream& in) : in_(in) {}
    std::size_t read(char* dst, std::size_t n) override {
        in_.read(dst, static_cast<std::streamsize>(n));
        if (in_.bad()) throw SourceError("read failed");
        return static_cast<std::size_t>(in_.gcount());
    }

private:
    std::istream& in_;
};

class MemorySource : public ByteSource {
public:
    MemorySource(const char* data, std::size_t size) : p_(data), left_(size) {}
    std::size_t read(char* dst, std::size_t n) override {
        const std::size_t k = std::min(n, left_);
        if (k) std::memcpy(dst, p_, k);
        p_ += k;
        left_ -= k;
        return k;
    }

private:
    const char* p_;
    std::size_t left_;
};

/// Replays the bytes already peeked at (to recognise compression), then the rest.
class PrefixedSource : public ByteSource {
public:
    PrefixedSource(std::string prefix, ByteSource& rest) : prefix_(std::move(prefix)), rest_(rest) {}
    std::size_t read(char* dst, std::size_t n) override {
        if (pos_ < prefix_.size()) {
            const std::size_t k = std::min(n, prefix_.size() - pos_);
            std::memcpy(dst, prefix_.data() + pos_, k);
            pos_ += k;
            return k;
        }
        return rest_.read(dst, n);
    }

private:
    std::string prefix_;
    std::size_t pos_ = 0;
    ByteSource& rest_;
};

/// @brief The decoder that the first bytes call for, reading from `src`, or nullptr for
/// plain text. `head` holds the first `have` bytes (already part of `src`); `compression`
/// is set to "gzip", "bzip2" or "none". Throws InputError for a format it cannot read.
/// @param head [in] first bytes  @param have [in] their count  @param src [in] the bytes
/// @param name [in] file name for messages  @param compression [out] what was recognised
std::unique_ptr<ByteSource> open_decoder(const char* head, std::size_t have, ByteSource& src, const std::string& name,
                                         std::string& compression);

}  // namespace detail
}  // namespace kit
