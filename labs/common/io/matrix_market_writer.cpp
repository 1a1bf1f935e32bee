// The Matrix Market writer: the shortest decimal that reads back to the same double, so a
// written file round-trips exactly (see matrix_market.hpp).
#include <charconv>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"

namespace kit {

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
    for (std::size_t k = 0; k < A.vals.size(); ++k) {
        if (buf.size() - used < 64) {
            out.write(buf.data(), static_cast<std::streamsize>(used));
            used = 0;
        }
        char* p = buf.data() + used;
        char* const end = buf.data() + buf.size();
        p = std::to_chars(p, end, static_cast<count_t>(A.row_idx[k]) + 1).ptr;
        *p++ = ' ';
        p = std::to_chars(p, end, static_cast<count_t>(A.col_idx[k]) + 1).ptr;
        *p++ = ' ';
        p = std::to_chars(p, end, A.vals[k]).ptr;
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
