#include <cstdio>
#include <iostream>

#include "cli_args.hpp"
#include "commands.hpp"
#include "matrix_market.hpp"
#include "matrix_stats.hpp"

namespace kit::cli {

int cmd_info(const std::vector<std::string>& argv) {
    const Args a(argv, {}, {"--help"}, "info");
    if (a.has("--help") || a.positional().size() != 1) {
        std::cout << "usage: spmv-kit info FILE.mtx\n\n"
                     "Prints size, nonzeros, row-length statistics, the number of occupied diagonals,\n"
                     "and the fill (stored slots / nonzeros) that ELL, DIA and BCSR would need.\n"
                     "FILE may be plain text, gzip or bzip2 (recognised from its content), or a pipe.\n"
                     "A malformed file is reported as FILE:LINE: reason, with exit status 2; a file that\n"
                     "breaks a convention of the format but can still be read gets FILE:LINE: warning: lines\n"
                     "on stderr (the rules: labs/common/matrix_market.hpp).\n";
        return a.has("--help") ? 0 : 2;
    }
    MatrixMarketInfo mm;
    const CooMatrix A = read_matrix_market(a.positional()[0], &mm);
    for (const std::string& w : mm.warnings) std::fprintf(stderr, "%s\n", w.c_str());
    const MatrixStats s = compute_stats(A);
    std::printf("file            %s (%s %s %s%s%s)\n", a.positional()[0].c_str(), mm.storage.c_str(), mm.field.c_str(),
                mm.symmetry.c_str(), mm.compression == "none" ? "" : ", ", mm.compression == "none" ? "" : mm.compression.c_str());
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
    return 0;
}

}  // namespace kit::cli
