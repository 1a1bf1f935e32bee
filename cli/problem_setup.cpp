// What the subcommands share before a run: the vectors of a problem.
#include "commands.hpp"
#include "core/kit_error.hpp"
#include "io/generators.hpp"

namespace kit::cli {

Reference make_reference(CooMatrix A, const std::string& kind) {
    std::vector<double> x, y;
    make_vectors(A, kind, x, y);
    return Reference(std::move(A), std::move(x), std::move(y));
}

void make_vectors(const CooMatrix& A, const std::string& kind, std::vector<double>& x, std::vector<double>& y) {
    const std::string k = kind == "auto" ? (A.rows <= 16 ? "ramp" : "ones") : kind;
    x.assign(A.cols, 1.0);
    y.assign(A.rows, 1.0);
    if (k == "ones") return;
    if (k == "ramp") {
        for (std::size_t j = 0; j < x.size(); ++j) x[j] = static_cast<double>(j + 1);
        for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<double>(i + 1);
        return;
    }
    if (k == "random") {
        RandomXY xy = random_xy(A.cols, A.rows, 12345);
        x = std::move(xy.x);
        y = std::move(xy.y);
        return;
    }
    throw Error("unknown --vectors '" + kind + "': use auto, ones, ramp or random");
}

}  // namespace kit::cli
