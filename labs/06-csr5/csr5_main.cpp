// csr5: prints the five CSR5 arrays of a matrix, tile by tile, so a drawing made by hand can be
// checked, then runs the CPU CSR5 SpMV (y <- y + A x, x = y = 1) against the oracle.
//
//   csr5 example4x4|example8x8|FILE.mtx [--omega W] [--sigma S] [--tiles N]
//
// --omega and --sigma default to 32 and the (4, 32, 256, 4) rule; --tiles (default 4) limits
// how many complete tiles are drawn.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "csr5_example.hpp"
#include "check/checked_run.hpp"
#include "csr5_run.hpp"
#include "formats/csr5.hpp"
#include "io/generators.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"

namespace {

template <class V>
void print_array(const char* name, const V& a, std::size_t group) {
    std::printf("%-17s=", name);
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (group && i && i % group == 0) std::printf(" |");
        std::printf(" %g", static_cast<double>(a[i]));
    }
    std::printf("\n");
}

void print_tile(const kit::Csr5<double>& m, kit::index_t t) {
    const auto base = static_cast<std::size_t>(t) * m.omega * m.sigma;
    std::printf("\ntile %d: first row %d%s\n  j   ", t, kit::csr5_tile_row(m.tile_ptr[t]),
                kit::csr5_tile_has_empty_rows(m.tile_ptr[t]) ? " (holds empty rows: uses empty_offset)" : "");
    for (int lane = 0; lane < m.omega; ++lane) std::printf("lane%-4d", lane);
    for (int j = 0; j < m.sigma; ++j) {
        std::printf("\n  %-4d", j);
        for (int lane = 0; lane < m.omega; ++lane) {
            const std::uint64_t desc = m.tile_desc[static_cast<std::size_t>(t) * m.omega + lane];
            std::printf("%c%-7g", kit::csr5_bit_flag(desc) >> j & 1u ? '*' : ' ', m.vals[base + j * m.omega + lane]);
        }
    }
    std::printf("\n  (* = bit_flag: the entry starts a segment)\n  y_offset   ");
    for (int lane = 0; lane < m.omega; ++lane) std::printf("%-8d", kit::csr5_y_offset(m.tile_desc[t * m.omega + lane]));
    std::printf("\n  seg_offset ");
    for (int lane = 0; lane < m.omega; ++lane)
        std::printf("%-8d", kit::csr5_seg_offset(m.tile_desc[t * m.omega + lane]));
    std::printf("\n");
    if (m.empty_offset_ptr[t + 1] > m.empty_offset_ptr[t]) {
        std::printf("  empty_offset");
        for (kit::index_t k = m.empty_offset_ptr[t]; k < m.empty_offset_ptr[t + 1]; ++k)
            std::printf(" %d", m.empty_offset[k]);
        std::printf("\n");
    }
}

kit::CooMatrix load(const std::string& what) {
    if (what == "example4x4") return kit::example4x4();
    if (what == "example8x8") return kit::csr5_example8x8();
    return kit::read_matrix_market(what);
}

/// The options after the matrix: the tile shape and how many complete tiles to draw.
struct Options {
    kit::Csr5Params params;
    int show = 4;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string opt = argv[i];
        const int value = std::stoi(argv[i + 1]);
        if (opt == "--omega")
            o.params.omega = value;
        else if (opt == "--sigma")
            o.params.sigma = value;
        else if (opt == "--tiles")
            o.show = value;
        else
            throw kit::Error("unknown option " + opt);
    }
    return o;
}

/// The five arrays, then the first `show` complete tiles drawn lane by lane.
void print_csr5(const kit::Csr5<double>& m, int show) {
    std::printf("%d x %d, nnz %d; omega %d, sigma %d: p = %d tiles, %d complete, tail of %d entries\n\n", m.rows,
                m.cols, m.nnz(), m.omega, m.sigma, m.tiles(), m.full_tiles(),
                m.nnz() - m.full_tiles() * m.omega * m.sigma);
    const std::size_t tile_size = static_cast<std::size_t>(m.omega) * m.sigma;
    print_array("row_ptr", m.row_ptr, 0);
    std::printf("%-17s=", "tile_ptr");  // the empty-rows flag shown as a minus sign (also on row 0)
    for (auto w : m.tile_ptr) std::printf(" %s%d", kit::csr5_tile_has_empty_rows(w) ? "-" : "", kit::csr5_tile_row(w));
    std::printf("   (-: the tile holds empty rows)\n");
    print_array("col_idx", m.col_idx, tile_size);
    print_array("vals", m.vals, tile_size);
    for (kit::index_t t = 0; t < std::min<kit::index_t>(m.full_tiles(), show); ++t) print_tile(m, t);
}

/// Runs the CPU csr5 variant with x = y = 1 against the oracle, through the registry as the
/// tests and the benchmark run it; returns the exit status (0: within the tolerance).
int check_cpu_csr5(const kit::CooMatrix& A, const kit::Csr5Params& params) {
    const kit::Variant* v = kit::registry().find("csr5", kit::Backend::cpu);
    if (!v) throw kit::Error("no CPU csr5 variant in this build");
    kit::RunOptions run;
    run.tunables[kit::kCsr5Omega] = params.omega;
    run.tunables[kit::kCsr5Sigma] = params.sigma;
    const kit::Reference ref(A, std::vector<double>(A.cols, 1.0), std::vector<double>(A.rows, 1.0));
    const kit::CheckedRun c = kit::run_checked(*v, ref, run);
    if (c.status == kit::RunStatus::ok || c.status == kit::RunStatus::wrong)
        std::printf("\ncpu csr5 with x = y = 1: max |error| against the oracle = %g: %s\n", c.mismatch.max_error,
                    c.status == kit::RunStatus::ok ? "within the bound-derived tolerance" : c.message.c_str());
    else
        std::printf("\ncpu csr5 with x = y = 1: %s: %s\n", kit::to_string(c.status).c_str(), c.message.c_str());
    return c.status == kit::RunStatus::ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "--help") {
        std::fprintf(argc < 2 ? stderr : stdout,
                     "usage: csr5 example4x4|example8x8|FILE.mtx [--omega W] [--sigma S] [--tiles N]\n");
        return argc < 2 ? 2 : 0;
    }
    try {
        const Options o = parse(argc, argv);
        kit::CooMatrix A = load(argv[1]);
        A.normalize();
        print_csr5(kit::Csr5<double>::from_coo(A, o.params), o.show);
        return check_cpu_csr5(A, o.params);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "csr5: %s\n", e.what());
        return 2;
    }
}
