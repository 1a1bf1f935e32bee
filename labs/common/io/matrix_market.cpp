#include "io/matrix_market.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <memory>
#include <ostream>
#include <sstream>
#include <string_view>

#if KIT_HAVE_ZLIB
#include <zlib.h>
#endif
#if KIT_HAVE_BZIP2
#include <bzlib.h>
#endif

#include "core/kit_error.hpp"

namespace kit {
namespace {

// Without a file size to go by (pipes, compressed input), reserve at most this many
// entries in advance: a 10^15-entry header must not reserve 10^15 entries.
constexpr count_t kMaxBlindReserve = count_t{1} << 20;
constexpr std::size_t kChunk = std::size_t{1} << 18;

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

// ------------------------------------------------------------------ byte sources

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

// ------------------------------------------------------------------ lines

bool is_blank_char(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

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

    /// Next line that is neither blank nor a comment (`%`, possibly after blanks).
    bool next_content(std::string_view& line) {
        while (next(line)) {
            std::size_t k = 0;
            while (k < line.size() && is_blank_char(line[k])) ++k;
            if (k < line.size() && line[k] != '%') return true;
        }
        return false;
    }
    [[noreturn]] void fail(const std::string& reason) const { throw InputError(name_, line_no_, reason); }
    std::string warning(const std::string& reason, long long line) const {
        return name_ + ":" + std::to_string(line) + ": warning: " + reason;
    }
    long long line() const { return line_no_; }

private:
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
int split_fields(std::string_view line, std::string_view* out, int max) {
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

std::string quoted(std::string_view tok) {
    // a hostile token may be huge or binary: quote a bounded, printable prefix
    std::string s;
    for (char c : tok.substr(0, 40)) s += (static_cast<unsigned char>(c) >= 32 && c != 127) ? c : '?';
    if (tok.size() > 40) s += "...";
    return "'" + s + "'";
}

std::string_view skip_plus(std::string_view tok) {
    // from_chars refuses a leading '+', which Fortran and C writers emit ("+1.5E+00")
    if (tok.size() > 1 && tok[0] == '+' && (tok[1] == '.' || (tok[1] >= '0' && tok[1] <= '9'))) tok.remove_prefix(1);
    return tok;
}

count_t parse_count(const LineReader& r, std::string_view tok, const char* what) {
    const std::string_view t = skip_plus(tok);
    count_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec == std::errc::result_out_of_range)
        r.fail(std::string(what) + " " + quoted(tok) + " is too large (size overflow)");
    if (ec != std::errc() || p != t.data() + t.size() || t.empty())
        r.fail(std::string(what) + " " + quoted(tok) + " is not an integer");
    return v;
}

double parse_value(const LineReader& r, std::string_view tok, bool integer_field) {
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

index_t parse_index(const LineReader& r, std::string_view tok, const char* what, index_t limit) {
    const count_t v = parse_count(r, tok, what);
    if (v < 1 || v > limit)
        r.fail(std::string(what) + " " + std::string(tok.substr(0, 40)) + " is out of range 1.." + std::to_string(limit) +
               " (Matrix Market indices are 1-based)");
    return static_cast<index_t>(v - 1);
}

// ------------------------------------------------------------------ header

enum class Field { real, integer, pattern };
enum class Symmetry { general, symmetric, skew };

struct Header {
    std::string storage, field, symmetry;
    Field f = Field::real;
    Symmetry s = Symmetry::general;
};

std::string lower(std::string_view v) {
    std::string s(v);
    for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
}

Header parse_banner(LineReader& r) {
    std::string_view line;
    if (!r.next(line)) r.fail("empty file: expected a '%%MatrixMarket matrix ...' banner");
    std::string_view tok[6];
    const int n = split_fields(line, tok, 6);
    if (n == 0 || lower(tok[0]) != "%%matrixmarket")
        r.fail("bad banner: the first line must start with '%%MatrixMarket'");
    if (n != 5)
        r.fail("bad banner: expected '%%MatrixMarket matrix <storage> <field> <symmetry>', found " +
               std::to_string(n) + " words");
    if (lower(tok[1]) != "matrix") r.fail("bad banner: object " + quoted(tok[1]) + " is not 'matrix'");
    Header h{lower(tok[2]), lower(tok[3]), lower(tok[4])};
    if (h.storage != "coordinate" && h.storage != "array")
        r.fail("bad banner: storage " + quoted(tok[2]) + " must be 'coordinate' or 'array'");
    if (h.field == "complex")
        r.fail("complex matrices are not supported: the kit's kernels are real-valued");
    if (h.field != "real" && h.field != "integer" && h.field != "pattern")
        r.fail("bad banner: field " + quoted(tok[3]) + " must be real, integer or pattern");
    if (h.symmetry == "hermitian")
        r.fail("hermitian matrices are not supported: the kit's kernels are real-valued");
    if (h.symmetry != "general" && h.symmetry != "symmetric" && h.symmetry != "skew-symmetric")
        r.fail("bad banner: symmetry " + quoted(tok[4]) + " must be general, symmetric or skew-symmetric");
    if (h.storage == "array" && h.field == "pattern")
        r.fail("bad banner: 'array' storage cannot have a 'pattern' field");
    if (h.field == "pattern" && h.symmetry == "skew-symmetric")
        r.fail("bad banner: 'pattern skew-symmetric' is not a valid combination (a pattern has no sign to "
               "mirror); declare the field 'integer' or 'real' and give the values");
    h.f = h.field == "real" ? Field::real : h.field == "integer" ? Field::integer : Field::pattern;
    h.s = h.symmetry == "general" ? Symmetry::general : h.symmetry == "symmetric" ? Symmetry::symmetric : Symmetry::skew;
    return h;
}

// ------------------------------------------------------------------ body

/// Collects the entries, enforcing the memory budget, and remembers which triangles a
/// symmetric file used (for the warning).
class EntrySink {
public:
    EntrySink(LineReader& r, CooMatrix& A, Symmetry s, count_t max_entries)
        : r_(r), A_(A), s_(s), max_entries_(max_entries) {}

    void reserve(count_t n) {
        const auto k = static_cast<std::size_t>(std::max<count_t>(0, std::min(n, max_entries_)));
        A_.row.reserve(k);
        A_.col.reserve(k);
        A_.val.reserve(k);
    }

    void add(index_t i, index_t j, double v) {
        if (s_ != Symmetry::general) {
            if (i == j && s_ == Symmetry::skew)
                r_.fail("skew-symmetric matrix has an entry on the diagonal (it must be zero and not stored)");
            if (i < j) {
                if (upper_++ == 0) first_upper_ = r_.line();
            } else if (i > j) {
                ++lower_;
            }
        }
        push(i, j, v);
        if (s_ != Symmetry::general && i != j) push(j, i, s_ == Symmetry::symmetric ? v : -v);
    }

    /// Warning for a symmetric file with entries above the diagonal ("" if none).
    std::string triangle_warning() const {
        if (upper_ == 0) return "";
        std::string w = std::to_string(upper_) + " entr" + (upper_ == 1 ? "y lies" : "ies lie") +
                        " above the diagonal (the first on this line); the spec stores the lower triangle only";
        if (lower_ == 0) return w + ". Each was read as its mirror below the diagonal.";
        return w + ", and " + std::to_string(lower_) +
               " lie below it. Every entry is mirrored, so a pair listed on both sides, (i,j) and (j,i), is "
               "summed twice. If the file lists the whole matrix, declare it 'general' in the banner.";
    }
    long long first_upper_line() const { return first_upper_; }

private:
    void push(index_t i, index_t j, double v) {
        if (static_cast<count_t>(A_.val.size()) >= max_entries_)
            r_.fail("the entries read so far (" + std::to_string(A_.val.size()) + ") need " +
                    gib(static_cast<double>(A_.val.size()) * kBytesPerEntryPeak) +
                    " to read and sort, the memory this process may use; run on a machine with more memory, "
                    "or raise 'ulimit -v'");
        A_.row.push_back(i);
        A_.col.push_back(j);
        A_.val.push_back(v);
    }

    LineReader& r_;
    CooMatrix& A_;
    Symmetry s_;
    count_t max_entries_;
    count_t upper_ = 0, lower_ = 0;
    long long first_upper_ = 0;
};

/// Parses the digits of a 1-based index at p; false (and no result) for anything unusual
/// (signs, more than 18 digits), which the general path then reports or accepts.
inline bool fast_index(const char*& p, const char* end, count_t& v) {
    const char* start = p;
    const char* stop = end - p > 18 ? p + 18 : end;  // 18 digits cannot overflow 64 bits
    count_t x = 0;
    while (p < stop && static_cast<unsigned>(*p - '0') < 10u) x = x * 10 + (*p++ - '0');
    v = x;
    return p > start && (p == end || is_blank_char(*p));
}

inline void skip_blanks(const char*& p, const char* end) {
    while (p < end && is_blank_char(*p)) ++p;
}

/// The common entry line "<row> <col> [<value>]" parsed in one pass, with no copies. Any
/// surprise returns false, and the line goes through the general path, which produces the
/// exact message (or accepts the rarer forms, such as '+' signs).
inline bool fast_entry(std::string_view line, bool pattern, bool integer, count_t& i, count_t& j, double& v) {
    const char* p = line.data();
    const char* const end = p + line.size();
    skip_blanks(p, end);
    if (!fast_index(p, end, i)) return false;
    skip_blanks(p, end);
    if (!fast_index(p, end, j)) return false;
    skip_blanks(p, end);
    if (pattern) {
        v = 1.0;
    } else if (integer) {
        count_t x = 0;
        const auto [q, ec] = std::from_chars(p, end, x);
        if (ec != std::errc() || q == p) return false;
        v = static_cast<double>(x);
        p = q;
    } else {
        const auto [q, ec] = std::from_chars(p, end, v, std::chars_format::general);
        if (ec != std::errc() || q == p || !std::isfinite(v)) return false;
        p = q;
    }
    skip_blanks(p, end);
    return p == end;
}

void read_coordinate(LineReader& r, EntrySink& sink, const CooMatrix& A, const Header& h, count_t nnz) {
    const bool pattern = h.f == Field::pattern;
    const bool integer = h.f == Field::integer;
    const int fields = pattern ? 2 : 3;
    std::string_view line, tok[3];
    for (count_t k = 0; k < nnz; ++k) {
        if (!r.next_content(line))
            r.fail("entry list is short: the size line promises " + std::to_string(nnz) +
                   " entries, the file ends after " + std::to_string(k));
        count_t fi = 0, fj = 0;
        double fv = 0;
        if (fast_entry(line, pattern, integer, fi, fj, fv) && fi >= 1 && fi <= A.rows && fj >= 1 && fj <= A.cols) {
            sink.add(static_cast<index_t>(fi - 1), static_cast<index_t>(fj - 1), fv);
            continue;
        }
        const int n = split_fields(line, tok, 3);
        if (n != fields)
            r.fail("expected " + std::to_string(fields) + " fields (row col" + (pattern ? "" : " value") +
                   "), found " + std::to_string(n));
        const index_t i = parse_index(r, tok[0], "row index", A.rows);
        const index_t j = parse_index(r, tok[1], "column index", A.cols);
        const double v = pattern ? 1.0 : parse_value(r, tok[2], integer);
        sink.add(i, j, v);
    }
}

void read_array(LineReader& r, EntrySink& sink, const CooMatrix& A, const Header& h) {
    std::string_view line, tok[1];
    // Column-major; symmetric arrays store the lower triangle only (skew: strictly lower).
    for (index_t j = 0; j < A.cols; ++j) {
        const index_t first = h.s == Symmetry::general ? 0 : (h.s == Symmetry::symmetric ? j : j + 1);
        for (index_t i = first; i < A.rows; ++i) {
            if (!r.next_content(line))
                r.fail("entry list is short: array data ends before entry (" + std::to_string(i + 1) + ", " +
                       std::to_string(j + 1) + ")");
            const int n = split_fields(line, tok, 1);
            if (n != 1) r.fail("expected 1 value per line in array storage, found " + std::to_string(n));
            const double v = parse_value(r, tok[0], h.f == Field::integer);
            if (v != 0.0) sink.add(i, j, v);
        }
    }
}

CooMatrix read_lines(LineReader& r, MatrixMarketInfo* info, const ReadOptions& opt, count_t size_hint,
                     const std::string& compression) {
    const Header h = parse_banner(r);
    std::string_view line;
    if (!r.next_content(line)) r.fail("missing size line after the banner");
    const bool coordinate = h.storage == "coordinate";
    std::string_view tok[3];
    const int n = split_fields(line, tok, 3);
    const int want = coordinate ? 3 : 2;
    if (n != want)
        r.fail(std::string("size line must have ") + (coordinate ? "3 numbers: rows cols nnz" : "2 numbers: rows cols") +
               ", found " + std::to_string(n));
    const count_t rows = parse_count(r, tok[0], "row count");
    const count_t cols = parse_count(r, tok[1], "column count");
    const count_t nnz = coordinate ? parse_count(r, tok[2], "entry count") : 0;
    if (rows < 0 || cols < 0 || nnz < 0) r.fail("sizes must not be negative");
    constexpr count_t limit = std::numeric_limits<index_t>::max();
    if (rows > limit || cols > limit)
        r.fail("size overflow: " + std::to_string(rows) + " x " + std::to_string(cols) +
               " exceeds the kit's 32-bit index limit " + std::to_string(limit));
    if (h.s != Symmetry::general && rows != cols)
        r.fail(h.symmetry + " matrix must be square, size line says " + std::to_string(rows) + " x " +
               std::to_string(cols));
    // Every use of a matrix needs x and y; a size line whose vectors cannot fit is refused
    // here, before the entries are read, rather than by an allocation failing later.
    const count_t budget = opt.memory_budget > 0 ? opt.memory_budget : memory_budget();
    const double vector_bytes = 8.0 * (static_cast<double>(rows) + static_cast<double>(cols));
    if (vector_bytes > static_cast<double>(budget))
        r.fail("a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix needs " + gib(vector_bytes) +
               " for its vectors x and y alone (8 bytes per row and per column), more than the " +
               gib(static_cast<double>(budget)) +
               " this process may use (machine memory, cgroup and ulimit); check the size line, or run on a "
               "machine with more memory");

    CooMatrix A;
    A.rows = static_cast<index_t>(rows);
    A.cols = static_cast<index_t>(cols);
    EntrySink sink(r, A, h.s, budget / kBytesPerEntryPeak);
    const count_t expansion = h.s == Symmetry::general ? 1 : 2;
    if (coordinate) {
        // The shortest entry line is "1 1\n" (pattern) or "1 1 1\n": a file of known size
        // cannot hold more entries than that, whatever its size line claims.
        const count_t most = size_hint > 0 ? size_hint / (h.f == Field::pattern ? 4 : 6) : kMaxBlindReserve;
        sink.reserve(std::min(nnz, most) * expansion);
        read_coordinate(r, sink, A, h, nnz);
    } else {
        read_array(r, sink, A, h);
    }
    if (r.next_content(line))
        r.fail("entry list is long: more data after the " +
               (coordinate ? std::to_string(nnz) + " entries the size line promises" : std::string("array values")));

    // Duplicates are summed first: only the summed matrix has to fit the index type.
    const count_t merged = A.normalize();
    if (A.nnz() > limit)
        r.fail("the matrix holds " + std::to_string(A.nnz()) + " distinct entries, more than the kit's 32-bit index "
               "limit " + std::to_string(limit) + "; split it, or use a tool with 64-bit indices");
    if (info) {
        *info = MatrixMarketInfo{};
        info->storage = h.storage;
        info->field = h.field;
        info->symmetry = h.symmetry;
        info->compression = compression;
        info->entries_in_file = coordinate ? nnz : rows * cols;
        info->duplicates_summed = merged;
        const std::string w = sink.triangle_warning();
        if (!w.empty()) info->warnings.push_back(r.warning(w, sink.first_upper_line()));
    }
    return A;
}

/// Recognises compression from the first bytes and reads through the matching decoder.
CooMatrix read_source(ByteSource& raw, const std::string& name, MatrixMarketInfo* info, const ReadOptions& opt,
                      count_t size_hint) {
    char head[6] = {};
    std::size_t have = 0;
    try {
        while (have < sizeof head) {
            const std::size_t got = raw.read(head + have, sizeof head - have);
            if (got == 0) break;
            have += got;
        }
    } catch (const SourceError& e) {
        throw InputError(name, 0, e.what());
    }
    PrefixedSource src(std::string(head, have), raw);
    const auto starts = [&](const char* magic, std::size_t n) { return have >= n && std::memcmp(head, magic, n) == 0; };
    if (starts("\x1f\x8b", 2)) {
#if KIT_HAVE_ZLIB
        GzipSource gz(src);
        LineReader r(gz, name, opt.max_line);
        return read_lines(r, info, opt, 0, "gzip");
#else
        throw InputError(name, 1, "gzip-compressed input, but this build has no zlib: install zlib1g-dev and "
                                  "rebuild (make deps; make), or decompress it first (gunzip -k FILE)");
#endif
    }
    if (starts("BZh", 3) && have >= 4 && head[3] >= '1' && head[3] <= '9') {
#if KIT_HAVE_BZIP2
        Bzip2Source bz(src);
        LineReader r(bz, name, opt.max_line);
        return read_lines(r, info, opt, 0, "bzip2");
#else
        throw InputError(name, 1, "bzip2-compressed input, but this build has no libbz2: install libbz2-dev and "
                                  "rebuild (make deps; make), or decompress it first (bunzip2 -k FILE)");
#endif
    }
    if (starts("\xfd" "7zXZ", 6)) throw InputError(name, 1, "xz-compressed input: decompress it first (xz -dk FILE)");
    if (starts("\x28\xb5\x2f\xfd", 4)) throw InputError(name, 1, "zstd-compressed input: decompress it first (zstd -d FILE)");
    LineReader r(src, name, opt.max_line);
    return read_lines(r, info, opt, size_hint, "none");
}

std::string file_kind(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

}  // namespace

count_t memory_budget() {
    double bytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
    if (!(bytes > 0)) bytes = 1e18;
    for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
        rlimit lim{};
        if (getrlimit(resource, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
            bytes = std::min(bytes, static_cast<double>(lim.rlim_cur));
    }
    // cgroup v2 limit: a Slurm job or a container sees the machine's memory but may use less
    std::ifstream cg("/sys/fs/cgroup/memory.max");
    std::string text;
    if (cg >> text && text != "max") {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end && *end == '\0' && v > 0) bytes = std::min(bytes, v);
    }
    return static_cast<count_t>(std::min(bytes, 9.0e18));
}

CooMatrix read_matrix_market(std::istream& in, const std::string& name, MatrixMarketInfo* info,
                             const ReadOptions& opt) {
    StreamSource src(in);
    return read_source(src, name, info, opt, 0);
}

CooMatrix read_matrix_market_bytes(const char* data, std::size_t size, const std::string& name,
                                   MatrixMarketInfo* info, const ReadOptions& opt) {
    MemorySource src(data, size);
    return read_source(src, name, info, opt, static_cast<count_t>(size));
}

CooMatrix read_matrix_market(const std::string& path, MatrixMarketInfo* info, const ReadOptions& opt) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        throw InputError(path, 0, std::string("cannot open file: ") + std::strerror(err) +
                                      (err == ENOENT ? " (check the path; matrices live in matrices/)" : ""));
    }
    FdSource src(fd);  // closes fd
    struct stat st{};
    if (::fstat(fd, &st) != 0) throw InputError(path, 0, std::string("cannot stat file: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        throw InputError(path, 0, "is " + file_kind(st.st_mode) +
                                      ", not a Matrix Market file; give the path of a .mtx file (or a pipe)");
#ifdef POSIX_FADV_SEQUENTIAL
    if (S_ISREG(st.st_mode)) (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    return read_source(src, path, info, opt, S_ISREG(st.st_mode) ? static_cast<count_t>(st.st_size) : 0);
}

std::string shortest_decimal(double v) {
    char buf[64];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
    if (ec != std::errc()) throw Error("shortest_decimal: formatting failed");
    return std::string(buf, p);
}

void write_matrix_market(std::ostream& out, const CooMatrix& A, const std::string& comment) {
    out << "%%MatrixMarket matrix coordinate real general\n";
    std::istringstream lines(comment);
    for (std::string l; std::getline(lines, l);) out << "% " << l << "\n";
    out << A.rows << " " << A.cols << " " << A.nnz() << "\n";
    // Formatted into a buffer with to_chars: a 50M-entry file is written in seconds, not minutes.
    std::vector<char> buf(std::size_t{1} << 20);
    std::size_t used = 0;
    for (std::size_t k = 0; k < A.val.size(); ++k) {
        if (buf.size() - used < 64) {
            out.write(buf.data(), static_cast<std::streamsize>(used));
            used = 0;
        }
        char* p = buf.data() + used;
        char* const end = buf.data() + buf.size();
        p = std::to_chars(p, end, static_cast<count_t>(A.row[k]) + 1).ptr;
        *p++ = ' ';
        p = std::to_chars(p, end, static_cast<count_t>(A.col[k]) + 1).ptr;
        *p++ = ' ';
        p = std::to_chars(p, end, A.val[k]).ptr;
        *p++ = '\n';
        used = static_cast<std::size_t>(p - buf.data());
    }
    out.write(buf.data(), static_cast<std::streamsize>(used));
}

void write_matrix_market(const std::string& path, const CooMatrix& A, const std::string& comment) {
    std::ofstream out(path);
    if (!out) throw Error("cannot write '" + path + "': check that the folder exists and is writable");
    write_matrix_market(out, A, comment);
    out.flush();
    if (!out) throw Error("write to '" + path + "' failed (disk full?)");
}

}  // namespace kit
