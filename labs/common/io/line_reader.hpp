/// @file line_reader.hpp
/// @brief The Matrix Market reader's lines and fields: a buffered line reader that knows
/// FILE:LINE for its messages, and the parsers of counts, values and indices. Internal to io/.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/kit_error.hpp"
#include "io/byte_source.hpp"

namespace kit {
namespace detail {

inline bool is_blank_char(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// Buffered line reader that remembers where it is, for FILE:LINE messages. Lines are
/// views into its buffer, valid until the next call; no line longer than the cap is
/// ever buffered whole.
class LineReader {
public:
    LineReader(ByteSource& src, std::string name, std::size_t max_line)
        : src_(src), name_(std::move(name)), max_line_(max_line), buf_(max_line + 1 + kChunk) {}

    bool next(std::string_view& line) {
        std::size_t scanned = begin_;
        for (;;) {
            const void* nl = scanned < end_ ? std::memchr(buf_.data() + scanned, '\n', end_ - scanned) : nullptr;
            if (nl) {
                const std::size_t stop = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
                return take(line, stop, stop + 1);
            }
            if (eof_) {
                if (begin_ == end_) return false;
                return take(line, end_, end_);
            }
            if (end_ - begin_ > max_line_) {
                ++line_no_;
                fail("line is longer than " + std::to_string(max_line_) +
                     " bytes: this is not Matrix Market text (its lines hold at most 1024 characters)");
            }
            scanned = end_;
            if (begin_ > 0) {
                std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
                scanned -= begin_;
                end_ -= begin_;
                begin_ = 0;
            }
            std::size_t got = 0;
            try {
                got = src_.read(buf_.data() + end_, buf_.size() - end_);
            } catch (const SourceError& e) {
                ++line_no_;
                fail(e.what());
            }
            if (got == 0) eof_ = true;
            end_ += got;
        }
    }

    /// Next line that is neither blank nor a comment (`%`, possibly after blanks). The blank
    /// and comment lines already in the buffer are skipped in bulk, a byte or a memchr at a
    /// time, without making a line of each: they read as fast as entries.
    bool next_content(std::string_view& line) {
        while (next(line)) {
            std::size_t k = 0;
            while (k < line.size() && is_blank_char(line[k])) ++k;
            if (k < line.size() && line[k] != '%') return true;
            skip_blank_and_comment_lines();  // only after a blank or comment line: entries pay nothing
        }
        return false;
    }
    [[noreturn]] void fail(const std::string& reason) const { throw InputError(name_, line_no_, reason); }
    std::string warning(const std::string& reason, long long line) const {
        return name_ + ":" + std::to_string(line) + ": warning: " + reason;
    }
    long long line() const { return line_no_; }

private:
    /// Consumes the whole blank and comment lines at the start of the buffer. Stops at a
    /// content line, at a line the buffer does not hold to its end, or at one longer than the
    /// cap: next() then reads it as usual (and refuses an overlong one with its number).
    void skip_blank_and_comment_lines() {
        const char* const base = buf_.data();
        std::size_t p = begin_;
        while (p < end_) {
            const char c = base[p];
            if (c == '\n') {
                if (p - begin_ > max_line_) return;
                ++line_no_;
                ++p;
                std::uint64_t eight = 0;  // a run of empty lines, 8 at a time
                while (end_ - p >= 8 && (std::memcpy(&eight, base + p, 8), eight == 0x0a0a0a0a0a0a0a0aULL)) {
                    line_no_ += 8;
                    p += 8;
                }
                begin_ = p;
            } else if (is_blank_char(c)) {
                ++p;
            } else if (c == '%') {
                const void* nl = std::memchr(base + p, '\n', end_ - p);
                if (!nl) return;
                const auto stop = static_cast<std::size_t>(static_cast<const char*>(nl) - base);
                if (stop - begin_ > max_line_) return;
                ++line_no_;
                begin_ = p = stop + 1;
            } else {
                return;
            }
        }
    }

    bool take(std::string_view& line, std::size_t stop, std::size_t next_begin) {
        ++line_no_;
        std::size_t len = stop - begin_;
        if (len > max_line_)
            fail("line is longer than " + std::to_string(max_line_) +
                 " bytes: this is not Matrix Market text (its lines hold at most 1024 characters)");
        if (len > 0 && buf_[begin_ + len - 1] == '\r') --len;  // files from Windows
        line = std::string_view(buf_.data() + begin_, len);
        begin_ = next_begin;
        return true;
    }

    ByteSource& src_;
    std::string name_;
    std::size_t max_line_;
    std::vector<char> buf_;
    std::size_t begin_ = 0, end_ = 0;
    bool eof_ = false;
    long long line_no_ = 0;
};

/// Splits on blanks into at most `max` views; returns how many fields there are in all.
inline int split_fields(std::string_view line, std::string_view* out, int max) {
    int n = 0;
    std::size_t k = 0;
    const std::size_t len = line.size();
    for (;;) {
        while (k < len && is_blank_char(line[k])) ++k;
        if (k == len) return n;
        const std::size_t start = k;
        while (k < len && !is_blank_char(line[k])) ++k;
        if (n < max) out[n] = line.substr(start, k - start);
        ++n;
    }
}

inline std::string quoted(std::string_view tok) {
    // a hostile token may be huge or binary: quote a bounded, printable prefix
    std::string s;
    for (char c : tok.substr(0, 40)) s += (static_cast<unsigned char>(c) >= 32 && c != 127) ? c : '?';
    if (tok.size() > 40) s += "...";
    return "'" + s + "'";
}

inline std::string_view skip_plus(std::string_view tok) {
    // from_chars refuses a leading '+', which Fortran and C writers emit ("+1.5E+00")
    if (tok.size() > 1 && tok[0] == '+' && (tok[1] == '.' || (tok[1] >= '0' && tok[1] <= '9'))) tok.remove_prefix(1);
    return tok;
}

inline count_t parse_count(const LineReader& r, std::string_view tok, const char* what) {
    const std::string_view t = skip_plus(tok);
    count_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec == std::errc::result_out_of_range)
        r.fail(std::string(what) + " " + quoted(tok) + " is too large (size overflow)");
    if (ec != std::errc() || p != t.data() + t.size() || t.empty())
        r.fail(std::string(what) + " " + quoted(tok) + " is not an integer");
    return v;
}

inline double parse_value(const LineReader& r, std::string_view tok, bool integer_field) {
    if (integer_field) return static_cast<double>(parse_count(r, tok, "integer value"));
    const std::string_view t = skip_plus(tok);
    double v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
    if (t.empty() || p != t.data() + t.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
        r.fail("value " + quoted(tok) + " is not a number");
    if (ec == std::errc::result_out_of_range) {
        // from_chars flags underflow too; a value below the smallest subnormal reads as
        // (signed) zero, as every other reader does. Only overflow is an error.
        v = std::strtod(std::string(t).c_str(), nullptr);
        if (std::isfinite(v)) return v;
        r.fail("value " + quoted(tok) + " is beyond the range of double; the kit accepts finite values only");
    }
    if (!std::isfinite(v)) r.fail("value " + quoted(tok) + " is not finite; the kit accepts finite values only");
    return v;
}

inline index_t parse_index(const LineReader& r, std::string_view tok, const char* what, index_t limit) {
    const count_t v = parse_count(r, tok, what);
    if (v < 1 || v > limit)
        r.fail(std::string(what) + " " + std::string(tok.substr(0, 40)) + " is out of range 1.." +
               std::to_string(limit) + " (Matrix Market indices are 1-based)");
    return static_cast<index_t>(v - 1);
}

}  // namespace detail
}  // namespace kit
