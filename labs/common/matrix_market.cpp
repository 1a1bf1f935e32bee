#include "matrix_market.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <limits>
#include <sstream>
#include <vector>

#include "kit_error.hpp"

namespace kit {
namespace {

// Reading a 10^15-entry header must not reserve 10^15 entries: memory grows with
// the entries actually present, up to this much reserved in advance.
constexpr count_t kMaxReserve = count_t{1} << 20;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::vector<std::string> split(const std::string& line) {
    std::istringstream ss(line);
    std::vector<std::string> out;
    for (std::string tok; ss >> tok;) out.push_back(tok);
    return out;
}

bool blank(const std::string& line) {
    return std::all_of(line.begin(), line.end(), [](unsigned char c) { return std::isspace(c); });
}

/// Line-oriented reader that remembers where it is, for file:line messages.
class LineReader {
public:
    LineReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}
    bool next(std::string& line) {
        if (!std::getline(in_, line)) return false;
        ++line_no_;
        if (!line.empty() && line.back() == '\r') line.pop_back();  // files from Windows
        return true;
    }
    /// Next line that is neither blank nor a comment.
    bool next_content(std::string& line) {
        while (next(line))
            if (!blank(line) && line[0] != '%') return true;
        return false;
    }
    [[noreturn]] void fail(const std::string& reason) const { throw InputError(name_, line_no_, reason); }
    long long line() const { return line_no_; }

private:
    std::istream& in_;
    std::string name_;
    long long line_no_ = 0;
};

count_t parse_count(const LineReader& r, const std::string& tok, const char* what) {
    count_t v = 0;
    auto [p, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec == std::errc::result_out_of_range)
        r.fail(std::string(what) + " '" + tok + "' is too large (size overflow)");
    if (ec != std::errc() || p != tok.data() + tok.size())
        r.fail(std::string(what) + " '" + tok + "' is not an integer");
    return v;
}

double parse_value(const LineReader& r, const std::string& tok, bool integer_field) {
    if (integer_field) return static_cast<double>(parse_count(r, tok, "integer value"));
    char* end = nullptr;
    const double v = std::strtod(tok.c_str(), &end);
    if (tok.empty() || end != tok.c_str() + tok.size()) r.fail("value '" + tok + "' is not a number");
    if (!std::isfinite(v)) r.fail("value '" + tok + "' is not finite; the kit accepts finite values only");
    return v;
}

index_t parse_index(const LineReader& r, const std::string& tok, const char* what, index_t limit) {
    const count_t v = parse_count(r, tok, what);
    if (v < 1 || v > limit)
        r.fail(std::string(what) + " " + tok + " is out of range 1.." + std::to_string(limit) +
               " (Matrix Market indices are 1-based)");
    return static_cast<index_t>(v - 1);
}

struct Header {
    std::string storage, field, symmetry;
};

Header parse_banner(LineReader& r) {
    std::string line;
    if (!r.next(line)) r.fail("empty file: expected a '%%MatrixMarket matrix ...' banner");
    const auto tok = split(line);
    if (tok.empty() || lower(tok[0]) != "%%matrixmarket")
        r.fail("bad banner: the first line must start with '%%MatrixMarket'");
    if (tok.size() != 5)
        r.fail("bad banner: expected '%%MatrixMarket matrix <storage> <field> <symmetry>', found " +
               std::to_string(tok.size()) + " words");
    if (lower(tok[1]) != "matrix") r.fail("bad banner: object '" + tok[1] + "' is not 'matrix'");
    Header h{lower(tok[2]), lower(tok[3]), lower(tok[4])};
    if (h.storage != "coordinate" && h.storage != "array")
        r.fail("bad banner: storage '" + tok[2] + "' must be 'coordinate' or 'array'");
    if (h.field == "complex")
        r.fail("complex matrices are not supported: the kit's kernels are real-valued");
    if (h.field != "real" && h.field != "integer" && h.field != "pattern")
        r.fail("bad banner: field '" + tok[3] + "' must be real, integer or pattern");
    if (h.symmetry == "hermitian")
        r.fail("hermitian matrices are not supported: the kit's kernels are real-valued");
    if (h.symmetry != "general" && h.symmetry != "symmetric" && h.symmetry != "skew-symmetric")
        r.fail("bad banner: symmetry '" + tok[4] + "' must be general, symmetric or skew-symmetric");
    if (h.storage == "array" && h.field == "pattern")
        r.fail("bad banner: 'array' storage cannot have a 'pattern' field");
    return h;
}

/// Adds one entry and, for symmetric storage, its mirror.
void add_entry(LineReader& r, CooMatrix& A, const Header& h, index_t i, index_t j, double v) {
    if (h.symmetry == "skew-symmetric" && i == j)
        r.fail("skew-symmetric matrix has an entry on the diagonal (it must be zero and not stored)");
    A.add(i, j, v);
    if (h.symmetry != "general" && i != j) A.add(j, i, h.symmetry == "symmetric" ? v : -v);
}

void read_coordinate(LineReader& r, CooMatrix& A, const Header& h, count_t nnz) {
    const bool pattern = h.field == "pattern";
    const std::size_t fields = pattern ? 2 : 3;
    const count_t expansion = h.symmetry == "general" ? 1 : 2;
    A.row.reserve(static_cast<std::size_t>(std::min(nnz * expansion, kMaxReserve)));
    A.col.reserve(A.row.capacity());
    A.val.reserve(A.row.capacity());
    std::string line;
    for (count_t k = 0; k < nnz; ++k) {
        if (!r.next_content(line))
            r.fail("entry list is short: the size line promises " + std::to_string(nnz) +
                   " entries, the file ends after " + std::to_string(k));
        const auto tok = split(line);
        if (tok.size() != fields)
            r.fail("expected " + std::to_string(fields) + " fields (row col" +
                   (pattern ? "" : " value") + "), found " + std::to_string(tok.size()));
        const index_t i = parse_index(r, tok[0], "row index", A.rows);
        const index_t j = parse_index(r, tok[1], "column index", A.cols);
        const double v = pattern ? 1.0 : parse_value(r, tok[2], h.field == "integer");
        add_entry(r, A, h, i, j, v);
    }
}

void read_array(LineReader& r, CooMatrix& A, const Header& h) {
    std::string line;
    // Column-major; symmetric arrays store the lower triangle only (skew: strictly lower).
    for (index_t j = 0; j < A.cols; ++j) {
        const index_t first = h.symmetry == "general" ? 0 : (h.symmetry == "symmetric" ? j : j + 1);
        for (index_t i = first; i < A.rows; ++i) {
            if (!r.next_content(line))
                r.fail("entry list is short: array data ends before entry (" + std::to_string(i + 1) +
                       ", " + std::to_string(j + 1) + ")");
            const auto tok = split(line);
            if (tok.size() != 1) r.fail("expected 1 value per line in array storage, found " +
                                        std::to_string(tok.size()));
            const double v = parse_value(r, tok[0], h.field == "integer");
            if (v != 0.0) add_entry(r, A, h, i, j, v);
        }
    }
}

}  // namespace

CooMatrix read_matrix_market(std::istream& in, const std::string& name, MatrixMarketInfo* info) {
    LineReader r(in, name);
    const Header h = parse_banner(r);
    std::string line;
    if (!r.next_content(line)) r.fail("missing size line after the banner");
    const auto tok = split(line);
    const bool coordinate = h.storage == "coordinate";
    const std::size_t want = coordinate ? 3 : 2;
    if (tok.size() != want)
        r.fail(std::string("size line must have ") + (coordinate ? "3 numbers: rows cols nnz" : "2 numbers: rows cols") +
               ", found " + std::to_string(tok.size()));
    const count_t rows = parse_count(r, tok[0], "row count");
    const count_t cols = parse_count(r, tok[1], "column count");
    const count_t nnz = coordinate ? parse_count(r, tok[2], "entry count") : 0;
    if (rows < 0 || cols < 0 || nnz < 0) r.fail("sizes must not be negative");
    constexpr count_t limit = std::numeric_limits<index_t>::max();
    if (rows > limit || cols > limit)
        r.fail("size overflow: " + std::to_string(rows) + " x " + std::to_string(cols) +
               " exceeds the kit's 32-bit index limit " + std::to_string(limit));
    // nnz <= rows*cols, checked without forming a product that could overflow
    // both sizes are below 2^31 here, so the product cannot overflow 64 bits
    if (coordinate && nnz > rows * cols)
        r.fail("size overflow: " + std::to_string(nnz) + " entries cannot fit in a " + std::to_string(rows) +
               " x " + std::to_string(cols) + " matrix");
    if (h.symmetry != "general" && rows != cols)
        r.fail(h.symmetry + " matrix must be square, size line says " + std::to_string(rows) + " x " +
               std::to_string(cols));

    CooMatrix A;
    A.rows = static_cast<index_t>(rows);
    A.cols = static_cast<index_t>(cols);
    if (coordinate) read_coordinate(r, A, h, nnz);
    else read_array(r, A, h);
    if (r.next_content(line))
        r.fail("entry list is long: more data after the " +
               (coordinate ? std::to_string(nnz) + " entries the size line promises" : std::string("array values")));
    check_index_range("expanded entry count", A.nnz());

    const count_t merged = A.normalize();
    if (info) *info = {h.storage, h.field, h.symmetry, coordinate ? nnz : rows * cols, merged};
    return A;
}

CooMatrix read_matrix_market(const std::string& path, MatrixMarketInfo* info) {
    std::ifstream in(path);
    if (!in) throw InputError(path, 0, "cannot open file (check the path; matrices live in matrices/)");
    return read_matrix_market(in, path, info);
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
    for (std::size_t k = 0; k < A.val.size(); ++k)
        out << A.row[k] + 1 << " " << A.col[k] + 1 << " " << shortest_decimal(A.val[k]) << "\n";
}

void write_matrix_market(const std::string& path, const CooMatrix& A, const std::string& comment) {
    std::ofstream out(path);
    if (!out) throw Error("cannot write '" + path + "': check that the folder exists and is writable");
    write_matrix_market(out, A, comment);
    if (!out) throw Error("write to '" + path + "' failed (disk full?)");
}

}  // namespace kit
