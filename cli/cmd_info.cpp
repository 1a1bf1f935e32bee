#include <cstdio>
#include <fstream>
#include <iostream>
#include <new>

#include "core/args.hpp"
#include "commands.hpp"
#include "model/format_model.hpp"
#include "core/kit_error.hpp"
#include "io/matrix_market.hpp"
#include "io/memory_budget.hpp"
#include "model/matrix_stats.hpp"

namespace kit::cli {

namespace {

// Lab 08's model (labs/common/model/format_model.hpp): the PMF summary, each format's storage and
// each covered kernel's predicted time; optionally one CSV row per kernel.
void print_format_model(const CooMatrix& A, const std::string& file, const std::string& precision_name,
                        const std::string& csv_path) {
    const Precision precision = parse_precision(precision_name);
    std::string source;
    const model::DeviceParams params = model::load_device_params(&source);
    model::ModelReport r;
    try {
        r = model::predict_formats(A, precision, params);
    } catch (const Error& e) {  // the starter's TODO, or no lab 08 in this build: the statistics above still stand
        std::printf("format model    not available: %s\n", e.what());
        return;
    }
    const model::HybSplit& s = r.hyb;
    std::printf("format model    lab 08 (Li, Yang and Li), %s, device parameters: %s\n", to_string(precision).c_str(),
                source.c_str());
    std::printf(
        "PMF             E(X) = %.4f, longest row %d, HYB K = %d: P(X<=K) = %.4f, E(X|X<=K) = %.4f, "
        "E(X|X>K) = %.4f\n",
        r.mean, r.pmf.longest(), s.K, s.p_le, s.e_le, s.e_gt);
    std::printf("                NNZ(X<=K) = %lld, NNZ(X>K) = %lld; HYB holds %lld in ELL, %lld in COO\n",
                static_cast<long long>(s.nnz_le), static_cast<long long>(s.nnz_gt), static_cast<long long>(s.nnz_ell),
                static_cast<long long>(s.nnz_coo));
    std::printf("storage         ");
    for (const model::FormatStorage& f : r.storage)
        std::printf("%s %lld B%s%s", model::to_string(f.format).c_str(), static_cast<long long>(f.bytes),
                    f.feasible ? "" : " (refused)", &f == &r.storage.back() ? "\n" : ", ");
    std::printf("predicted       %-15s %9s %9s %9s %9s %9s %9s %9s %-9s %-10s %9s\n", "kernel (ms)", "total", "AM",
                "gather", "sectors", "atomics", "CTC", "serial", "launches", "rounds", "GB/s");
    for (const model::KernelPrediction& k : r.kit)
        std::printf("                %-15s %9.4g %9.4g %9.4g %9.4g %9.4g %9.4g %9.4g %2d %6.4g %3.0f %6.4g %9.0f%s%s\n",
                    k.variant.c_str(), k.total_ms, k.am_ms, k.gather_ms, k.sector_ms, k.atomic_ms,
                    k.ctc_m_ms + k.ctc_a_ms, k.serial_ms, k.launches, k.launch_ms, k.rounds, k.rounds_ms, k.stream_gbs,
                    k.feasible ? "" : "  infeasible: ", k.why_not.c_str());
    std::printf("pick            %s%s%s\n", r.pick.empty() ? "none" : r.pick.c_str(), r.reason.empty() ? "" : ": ",
                r.reason.c_str());
    if (csv_path.empty()) return;
    std::ofstream csv(csv_path);
    if (!csv) throw Error(csv_path + ": cannot write the prediction CSV");
    csv << "matrix,precision,kernel,format,feasible,predicted_ms,bytes,stream_gbs,am_ms,gather_ms,sector_ms,atomic_ms,"
           "ctc_ms,serial_ms,launch_ms,launches,rounds,rounds_ms,fixed_ms,picked\n";
    std::string name = file.substr(file.find_last_of('/') + 1);
    name = name.substr(0, name.find('.'));
    for (const model::KernelPrediction& k : r.kit)
        csv << name << "," << to_string(precision) << "," << k.variant << "," << model::to_string(k.format) << ","
            << (k.feasible ? 1 : 0) << "," << k.total_ms << "," << k.bytes << "," << k.stream_gbs << "," << k.am_ms
            << "," << k.gather_ms << "," << k.sector_ms << "," << k.atomic_ms << "," << k.ctc_m_ms + k.ctc_a_ms << ","
            << k.serial_ms << "," << k.launch_ms << "," << k.launches << "," << k.rounds << "," << k.rounds_ms << ","
            << k.fixed_ms << "," << (k.variant == r.pick ? 1 : 0) << "\n";
    if (!csv) throw Error(csv_path + ": write failed");
}

/// compute_stats, with an allocation failure reported as the tool's, with the figures.
MatrixStats stats_of(const CooMatrix& A, const std::string& file) {
    try {
        return compute_stats(A);
    } catch (const std::bad_alloc&) {
        throw Error("spmv-kit info: " + file + ": out of memory while computing the statistics of a " +
                    std::to_string(A.rows) + " x " + std::to_string(A.cols) + " matrix with " +
                    std::to_string(A.nnz()) + " entries (they need about " +
                    format_bytes(16.0 * static_cast<double>(A.nnz())) +
                    " besides the matrix; the memory this "
                    "process may use: " +
                    format_bytes(static_cast<double>(memory_budget())) + " " + budget_source() + ")");
    }
}

}  // namespace

int cmd_info(const std::vector<std::string>& argv) {
    const Args a(argv, {"--precision", "--predict-csv"}, {"--help"}, "info");
    if (a.has("--help") || a.positional().size() != 1) {
        std::cout << "usage: spmv-kit info FILE.mtx [--precision float|double] [--predict-csv OUT.csv]\n\n"
                     "Prints size, nonzeros, row-length statistics, the number of occupied diagonals,\n"
                     "and the fill (stored slots / nonzeros) that ELL, DIA and BCSR would need; then lab 08's\n"
                     "format model: the row-length PMF, each format's storage and each CUDA kernel's predicted\n"
                     "time (device parameters from $KIT_DEVICE_PARAMS, written by spmv-kit calibrate, else\n"
                     "H100 defaults); --predict-csv also writes one row per kernel to OUT.csv.\n"
                     "FILE may be plain text, gzip or bzip2 (recognised from its content), or a pipe.\n"
                     "A malformed file is reported as FILE:LINE: reason, with exit status 2; a file that\n"
                     "breaks a convention of the format but can still be read gets FILE:LINE: warning: lines\n"
                     "on stderr (the rules: labs/common/io/matrix_market.hpp).\n";
        return a.has("--help") ? 0 : 2;
    }
    // info allocates no vectors: its statistics and the model cost memory by entries, never by rows
    ReadOptions opt;
    opt.row_bytes = 0;
    opt.col_bytes = 0;
    MatrixMarketInfo mm;
    const CooMatrix A = read_matrix_market(a.positional()[0], &mm, opt);
    for (const std::string& w : mm.warnings) std::fprintf(stderr, "%s\n", w.c_str());
    const MatrixStats s = stats_of(A, a.positional()[0]);
    std::printf("file            %s (%s %s %s%s%s)\n", a.positional()[0].c_str(), mm.storage.c_str(), mm.field.c_str(),
                mm.symmetry.c_str(), mm.compression == "none" ? "" : ", ",
                mm.compression == "none" ? "" : mm.compression.c_str());
    std::printf("size            %d x %d\n", s.rows, s.cols);
    std::printf("nonzeros        %lld (file lists %lld; duplicates summed: %lld)\n", static_cast<long long>(s.nnz),
                static_cast<long long>(mm.entries_in_file), static_cast<long long>(mm.duplicates_summed));
    std::printf("row length      min %d, max %d, mean %.2f, stddev %.2f, empty rows %d\n", s.min_row, s.max_row,
                s.mean_row, s.stddev_row, s.empty_rows);
    std::printf("diagonals       %d occupied\n", s.diagonals);
    std::printf("fill, ELL       %.3f  (rows x longest row / nnz)\n", s.ell_fill);
    std::printf("fill, DIA       %.3f  (rows x diagonals / nnz)\n", s.dia_fill);
    std::printf("fill, BCSR      r\\c      1      2      3      4\n");
    for (int r = 0; r < 4; ++r)
        std::printf("                %d  %6.3f %6.3f %6.3f %6.3f\n", r + 1, s.bcsr_fill[r][0], s.bcsr_fill[r][1],
                    s.bcsr_fill[r][2], s.bcsr_fill[r][3]);
    print_format_model(A, a.positional()[0], a.get("--precision", "double"), a.get("--predict-csv"));
    return 0;
}

}  // namespace kit::cli
