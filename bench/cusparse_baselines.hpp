/// @file cusparse_baselines.hpp
/// @brief cuSPARSE's SpMV as variants, so the benchmark times them exactly like the kit's kernels.
///
/// Baselines (backend cuda, lab "cusparse"):
/// - `cusparse-csr`:      generic cusparseSpMV on CSR, CUSPARSE_SPMV_ALG_DEFAULT (= CSR_ALG1)
/// - `cusparse-csr-alg2`: the same with CUSPARSE_SPMV_CSR_ALG2 (deterministic)
/// - `cusparse-coo`:      generic cusparseSpMV on COO, CUSPARSE_SPMV_ALG_DEFAULT
/// - `cusparse-bsr`:      generic cusparseSpMV on BSR (CUSPARSE_SPMV_BSR_ALG1), falling back to
///                        cusparse[SD]bsrmv if the generic API fails (the note says which ran);
///                        square b x b blocks, b picked from {2,3,4,5,6,8} by the smallest
///                        BCSR bytes model (or forced by its one tunable, declared in its
///                        Variant::tunables), refused above fill 3
/// - `cusparse-sell`:     generic cusparseSpMV on sliced ELL (CUSPARSE_SPMV_SELL_ALG1), given the
///                        kit's SELL-C-sigma arrays (kit::Sell, same C and sigma as the kit's
///                        "sell" kernel by default; its own two tunables force them), y permuted
///                        into the sorted row order and back outside the timed calls
/// Each calls cusparseSpMV_preprocess once before the checked run. Timing, warm-up, L2
/// flush and the median are the kit's (kit::run_on_cuda), so a kernel and its baseline are
/// measured by the same code. alpha = beta = 1 gives the kit's y <- y + A x.
/// The five share one cuSPARSE handle, made on their first run and destroyed with the last of
/// them: keep the variant list alive no longer than CUDA (a local in main does).
#pragma once

#include <vector>

#include "registry/variants.hpp"

namespace bench {

/// @brief Appends the five cuSPARSE variants. @param out [in,out] variant list
void add_cusparse_variants(std::vector<kit::Variant>& out);

}  // namespace bench
