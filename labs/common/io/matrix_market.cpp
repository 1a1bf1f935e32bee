#include "io/matrix_market.hpp"

#include <fcntl.h>
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

#include "core/kit_error.hpp"

#include "io/byte_source.hpp"
#include "io/line_reader.hpp"

namespace kit {
namespace {

using detail::ByteSource;
using detail::FdSource;
using detail::is_blank_char;
using detail::LineReader;
using detail::MemorySource;
using detail::parse_count;
using detail::parse_index;
using detail::parse_value;
using detail::PrefixedSource;
using detail::quoted;
using detail::SourceError;
using detail::split_fields;
using detail::StreamSource;

// Without a file size to go by (pipes, compressed input), reserve at most this many
// entries in advance: a 10^15-entry header must not reserve 10^15 entries.
constexpr count_t kMaxBlindReserve = count_t{1} << 20;

std::string gib(double bytes) { return format_bytes(bytes); }

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
        r.fail("bad banner: expected '%%MatrixMarket matrix <storage> <field> <symmetry>', found " + std::to_string(n) +
               " words");
    if (lower(tok[1]) != "matrix") r.fail("bad banner: object " + quoted(tok[1]) + " is not 'matrix'");
    Header h{lower(tok[2]), lower(tok[3]), lower(tok[4])};
    if (h.storage != "coordinate" && h.storage != "array")
        r.fail("bad banner: storage " + quoted(tok[2]) + " must be 'coordinate' or 'array'");
    if (h.field == "complex") r.fail("complex matrices are not supported: the kit's kernels are real-valued");
    if (h.field != "real" && h.field != "integer" && h.field != "pattern")
        r.fail("bad banner: field " + quoted(tok[3]) + " must be real, integer or pattern");
    if (h.symmetry == "hermitian") r.fail("hermitian matrices are not supported: the kit's kernels are real-valued");
    if (h.symmetry != "general" && h.symmetry != "symmetric" && h.symmetry != "skew-symmetric")
        r.fail("bad banner: symmetry " + quoted(tok[4]) + " must be general, symmetric or skew-symmetric");
    if (h.storage == "array" && h.field == "pattern")
        r.fail("bad banner: 'array' storage cannot have a 'pattern' field");
    if (h.field == "pattern" && h.symmetry == "skew-symmetric")
        r.fail(
            "bad banner: 'pattern skew-symmetric' is not a valid combination (a pattern has no sign to "
            "mirror); declare the field 'integer' or 'real' and give the values");
    h.f = h.field == "real" ? Field::real : h.field == "integer" ? Field::integer : Field::pattern;
    h.s = h.symmetry == "general"     ? Symmetry::general
          : h.symmetry == "symmetric" ? Symmetry::symmetric
                                      : Symmetry::skew;
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
        A_.row_idx.reserve(k);
        A_.col_idx.reserve(k);
        A_.vals.reserve(k);
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
        if (static_cast<count_t>(A_.vals.size()) >= max_entries_)
            r_.fail("the entries read so far (" + std::to_string(A_.vals.size()) + ") need " +
                    gib(static_cast<double>(A_.vals.size()) * kBytesPerEntryPeak) +
                    " to read and sort, the memory this process may use " + budget_source() +
                    "; run on a machine with more memory, or raise the limit (--max-memory, ulimit -v)");
        A_.row_idx.push_back(i);
        A_.col_idx.push_back(j);
        A_.vals.push_back(v);
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
            r.fail("expected " + std::to_string(fields) + " fields (row col" + (pattern ? "" : " value") + "), found " +
                   std::to_string(n));
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

/// The size line: rows, columns and (coordinate storage) the entry count.
struct SizeLine {
    count_t rows = 0, cols = 0, nnz = 0;
};

SizeLine parse_size_line(LineReader& r, const Header& h) {
    std::string_view line;
    if (!r.next_content(line)) r.fail("missing size line after the banner");
    const bool coordinate = h.storage == "coordinate";
    std::string_view tok[3];
    const int n = split_fields(line, tok, 3);
    const int want = coordinate ? 3 : 2;
    if (n != want)
        r.fail(std::string("size line must have ") +
               (coordinate ? "3 numbers: rows cols nnz" : "2 numbers: rows cols") + ", found " + std::to_string(n));
    SizeLine z;
    z.rows = parse_count(r, tok[0], "row count");
    z.cols = parse_count(r, tok[1], "column count");
    z.nnz = coordinate ? parse_count(r, tok[2], "entry count") : 0;
    if (z.rows < 0 || z.cols < 0 || z.nnz < 0) r.fail("sizes must not be negative");
    constexpr count_t limit = std::numeric_limits<index_t>::max();
    if (z.rows > limit || z.cols > limit)
        r.fail("size overflow: " + std::to_string(z.rows) + " x " + std::to_string(z.cols) +
               " exceeds the kit's 32-bit index limit " + std::to_string(limit));
    if (h.s != Symmetry::general && z.rows != z.cols)
        r.fail(h.symmetry + " matrix must be square, size line says " + std::to_string(z.rows) + " x " +
               std::to_string(z.cols));
    return z;
}

/// What the caller will allocate per declared row and column (ReadOptions::row_bytes,
/// col_bytes) must fit the budget: a size line that cannot is refused here, before the
/// entries are read, rather than by an allocation failing later. (The entries' peak, while
/// reading and sorting, comes before the caller's vectors, so each is checked on its own.)
void check_declared_fits(const LineReader& r, const SizeLine& z, const ReadOptions& opt, count_t budget) {
    const double bytes = opt.row_bytes * static_cast<double>(z.rows) + opt.col_bytes * static_cast<double>(z.cols);
    if (bytes > static_cast<double>(budget)) {
        char per[96];
        std::snprintf(per, sizeof per, "%g bytes per row and %g per column", opt.row_bytes, opt.col_bytes);
        r.fail(
            "a " + std::to_string(z.rows) + " x " + std::to_string(z.cols) + " matrix needs " + gib(bytes) + " for " +
            opt.row_use + " alone (" + per + "), more than the " + gib(static_cast<double>(budget)) +
            " this process may use " + budget_source() +
            "; check the size line, raise the limit (--max-memory, ulimit -v), or run on a machine with more memory");
    }
}

/// Reads the entries after the size line into A, and refuses data past their end.
void read_entries(LineReader& r, EntrySink& sink, CooMatrix& A, const Header& h, const SizeLine& z, count_t size_hint) {
    const bool coordinate = h.storage == "coordinate";
    const count_t expansion = h.s == Symmetry::general ? 1 : 2;
    if (coordinate) {
        // The shortest entry line is "1 1\n" (pattern) or "1 1 1\n": a file of known size
        // cannot hold more entries than that, whatever its size line claims.
        const count_t most = size_hint > 0 ? size_hint / (h.f == Field::pattern ? 4 : 6) : kMaxBlindReserve;
        sink.reserve(std::min(z.nnz, most) * expansion);
        read_coordinate(r, sink, A, h, z.nnz);
    } else {
        read_array(r, sink, A, h);
    }
    std::string_view line;
    if (r.next_content(line))
        r.fail("entry list is long: more data after the " +
               (coordinate ? std::to_string(z.nnz) + " entries the size line promises" : std::string("array values")));
}

MatrixMarketInfo describe_file(const LineReader& r, const EntrySink& sink, const Header& h, const SizeLine& z,
                               count_t merged, const std::string& compression) {
    MatrixMarketInfo info;
    info.storage = h.storage;
    info.field = h.field;
    info.symmetry = h.symmetry;
    info.compression = compression;
    info.entries_in_file = h.storage == "coordinate" ? z.nnz : z.rows * z.cols;
    info.duplicates_summed = merged;
    const std::string w = sink.triangle_warning();
    if (!w.empty()) info.warnings.push_back(r.warning(w, sink.first_upper_line()));
    return info;
}

CooMatrix read_lines(LineReader& r, MatrixMarketInfo* info, const ReadOptions& opt, count_t size_hint,
                     const std::string& compression) {
    const Header h = parse_banner(r);
    const SizeLine z = parse_size_line(r, h);
    const count_t budget = opt.memory_budget > 0 ? opt.memory_budget : memory_budget();
    check_declared_fits(r, z, opt, budget);

    CooMatrix A;
    A.rows = static_cast<index_t>(z.rows);
    A.cols = static_cast<index_t>(z.cols);
    EntrySink sink(r, A, h.s, budget / kBytesPerEntryPeak);
    read_entries(r, sink, A, h, z, size_hint);

    // Duplicates are summed first: only the summed matrix has to fit the index type.
    const count_t merged = A.normalize();
    constexpr count_t limit = std::numeric_limits<index_t>::max();
    if (A.nnz() > limit)
        r.fail("the matrix holds " + std::to_string(A.nnz()) +
               " distinct entries, more than the kit's 32-bit index "
               "limit " +
               std::to_string(limit) + "; split it, or use a tool with 64-bit indices");
    if (info) *info = describe_file(r, sink, h, z, merged, compression);
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
    std::string compression;
    const std::unique_ptr<ByteSource> decoder = open_decoder(head, have, src, name, compression);
    LineReader r(decoder ? *decoder : src, name, opt.max_line);
    // a compressed file's size says nothing of how many entries it can hold
    return read_lines(r, info, opt, decoder ? 0 : size_hint, compression);
}

std::string file_kind(mode_t m) {
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

}  // namespace

CooMatrix read_matrix_market(std::istream& in, const std::string& name, MatrixMarketInfo* info,
                             const ReadOptions& opt) {
    StreamSource src(in);
    return read_source(src, name, info, opt, 0);
}

CooMatrix read_matrix_market_bytes(const char* data, std::size_t size, const std::string& name, MatrixMarketInfo* info,
                                   const ReadOptions& opt) {
    MemorySource src(data, size);
    return read_source(src, name, info, opt, static_cast<count_t>(size));
}

CooMatrix read_matrix_market(const std::string& path, MatrixMarketInfo* info, const ReadOptions& opt) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        throw InputError(path, 0,
                         std::string("cannot open file: ") + std::strerror(err) +
                             (err == ENOENT ? " (check the path; matrices live in matrices/)" : ""));
    }
    FdSource src(fd);  // closes fd
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw InputError(path, 0, std::string("cannot stat file: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        throw InputError(
            path, 0,
            "is " + file_kind(st.st_mode) + ", not a Matrix Market file; give the path of a .mtx file (or a pipe)");
#ifdef POSIX_FADV_SEQUENTIAL
    if (S_ISREG(st.st_mode)) (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    return read_source(src, path, info, opt, S_ISREG(st.st_mode) ? static_cast<count_t>(st.st_size) : 0);
}

}  // namespace kit
