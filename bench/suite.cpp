#include "suite.hpp"

#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <sstream>

#include "check/checked_run.hpp"
#include "io/block_fem.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"
#include "registry/variants.hpp"

namespace bench {
namespace {

using kit::CooMatrix;
using kit::index_t;

/// Entries listed on the size line of a Matrix Market file, doubled for symmetric files
/// (an estimate for progress lines only: the reader gives the exact count).
std::int64_t mtx_entries(const std::string& path) {
    std::ifstream in(path);
    std::string line, banner;
    std::getline(in, banner);
    while (std::getline(in, line))
        if (!line.empty() && line[0] != '%') break;
    std::istringstream size_line(line);
    std::int64_t rows = 0, cols = 0, entries = 0;
    size_line >> rows >> cols >> entries;
    const bool symmetric = banner.find("symmetric") != std::string::npos;
    return symmetric ? 2 * entries : entries;
}

/// The name of a Matrix Market file without its extension (".mtx", or ".mtx" and the
/// compression the reader decodes: ".gz", ".bz2"); "" for any other file.
std::string mtx_stem(const std::string& n) {
    for (const char* ext : {".mtx", ".mtx.gz", ".mtx.bz2"}) {
        const std::size_t k = std::char_traits<char>::length(ext);
        if (n.size() > k && n.compare(n.size() - k, k, ext) == 0) return n.substr(0, n.size() - k);
    }
    return "";
}

std::vector<std::string> mtx_files(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (const dirent* e = readdir(d)) {
            const std::string n = e->d_name;
            if (!mtx_stem(n).empty()) names.push_back(n);
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());  // x.mtx before x.mtx.gz: a plain copy wins
    names.erase(std::unique(names.begin(), names.end(),
                            [](const std::string& a, const std::string& b) { return mtx_stem(a) == mtx_stem(b); }),
                names.end());
    return names;
}

/// Generator sizes per suite size; index with static_cast<int>(Size).
struct Dims {
    int stencil2d, stencil3d7, stencil3d27, radius_x, radius_y, rdb_m, fem_n, power_n, dense_rows_n, random_n, dense_n;
};
constexpr Dims kDims[] = {
    /* tiny   */ {40, 12, 10, 48, 32, 30, 12, 3000, 3000, 3000, 128},
    /* small  */ {300, 40, 30, 120, 80, 150, 80, 65536, 50000, 25000, 500},
    /* medium */ {1000, 100, 64, 481, 321, 500, 220, 262144, 250000, 120000, 1000},
    /* large  */ {1000, 128, 160, 481, 321, 1000, 420, 1000000, 250000, 400000, 2000},
};

std::string grid_name(const std::string& base, int a, int b) {
    return base + "_" + std::to_string(a) + "x" + std::to_string(b);
}

}  // namespace

Size parse_size(const std::string& text) {
    if (text == "tiny") return Size::tiny;
    if (text == "small") return Size::small;
    if (text == "medium") return Size::medium;
    if (text == "large") return Size::large;
    throw kit::Error("unknown --size '" + text + "': use tiny, small, medium or large");
}

std::string to_string(Size s) {
    switch (s) {
        case Size::tiny:
            return "tiny";
        case Size::small:
            return "small";
        case Size::medium:
            return "medium";
        case Size::large:
            return "large";
    }
    return "?";
}

std::vector<MatrixSpec> build_suite(Size size, const std::string& suitesparse_dir) {
    const Dims d = kDims[static_cast<int>(size)];
    std::vector<MatrixSpec> s;
    auto add = [&](std::string name, std::string family, std::vector<std::string> own, std::int64_t nnz,
                   std::function<CooMatrix()> make) {
        s.push_back({std::move(name), std::move(family), std::move(own), nnz, false, false, std::move(make)});
    };
    // launch-bound end: a few thousand rows
    add("rdb450", "rdb", {}, 2580, [] {
        kit::RdbParams p;
        p.m = 15;
        return kit::generate_rdb(p);
    });
    add("stencil2d_64x64", "stencil", {}, 5LL * 64 * 64, [] { return kit::generate_stencil2d(64, 64); });

    const int s2 = d.stencil2d, s7 = d.stencil3d7, s27 = d.stencil3d27;
    add(grid_name("stencil2d", s2, s2), "stencil", {"dia", "ell"}, 5LL * s2 * s2,
        [s2] { return kit::generate_stencil2d(s2, s2); });
    add("stencil3d7_n" + std::to_string(s7), "stencil", {"dia", "ell"}, 7LL * s7 * s7 * s7,
        [s7] { return kit::generate_stencil3d(s7, 7); });
    add(grid_name("radius5", d.radius_x, d.radius_y), "radius", {"dia"}, 81LL * d.radius_x * d.radius_y,
        [d] { return kit::generate_radius_grid(d.radius_x, d.radius_y, 5); });
    if (size == Size::large)  // lab 07's targets ask for at least 20M nonzeros
        add("radius5_640x480", "radius", {"dia"}, 81LL * 640 * 480,
            [] { return kit::generate_radius_grid(640, 480, 5); });
    add("rdb_m" + std::to_string(d.rdb_m), "rdb", {"dia"}, 12LL * d.rdb_m * d.rdb_m, [d] {
        kit::RdbParams p;
        p.m = d.rdb_m;
        return kit::generate_rdb(p);
    });
    add(grid_name("fem_q1_dof3", d.fem_n, d.fem_n), "fem-block", {"bcsr"}, 81LL * d.fem_n * d.fem_n,
        [d] { return kit::generate_block_fem(d.fem_n, d.fem_n, 3, 11); });
    add("random32_" + std::to_string(d.random_n), "random", {kit::role::default_choice}, 32LL * d.random_n,
        [d] { return kit::generate_random(d.random_n, d.random_n, 32, 21); });
    add("power_law_" + std::to_string(d.power_n), "power-law", {"csr5"}, 13LL * d.power_n,
        [d] { return kit::generate_power_law(d.power_n, d.power_n, 1.0, 31); });
    add("dense_rows_" + std::to_string(d.dense_rows_n), "dense-rows", {"hyb"}, 24LL * d.dense_rows_n,
        [d] { return kit::generate_dense_rows(d.dense_rows_n, 20, 4, 41); });
    add(grid_name("dense", d.dense_n, d.dense_n), "dense", {}, 1LL * d.dense_n * d.dense_n,
        [d] { return kit::generate_dense(d.dense_n, d.dense_n, 51); });
    // the 100M+ point: 27 diagonals of 4.1M rows, 1.3 GB in double; the load-balanced CSR kernel
    // is there for the CSR target (the best CSR-family kernel against cuSPARSE on every matrix
    // above 1M nonzeros)
    add("stencil3d27_n" + std::to_string(s27), "stencil",
        {"dia", "ell", kit::role::default_choice, kit::role::load_balanced}, 27LL * s27 * s27 * s27,
        [s27] { return kit::generate_stencil3d(s27, 27); });
    if (size == Size::large) s.back().double_only = s.back().own_formats_only = true;

    for (const std::string& file : mtx_files(suitesparse_dir)) {
        const std::string path = suitesparse_dir + "/" + file;
        // a compressed file's size line is not plain text: its estimate stays 0 (unknown)
        const std::int64_t estimate = file == mtx_stem(file) + ".mtx" ? mtx_entries(path) : 0;
        add("ss_" + mtx_stem(file), "suitesparse", {}, estimate,
            [path] { return kit::read_matrix_market(path, nullptr, kit::checked_run_read_options()); });
    }
    return s;
}

}  // namespace bench
