/// @file sell_run.hpp
/// @brief What lab 11's variants share: the tunables sell_c, sell_sigma and sell_threads (declared here
/// once), the conversions (with the options' C and sigma, or with choose_sell's pick), the
/// bytes model and the note; the arguments of kit::cpu_variant and kit::cuda_variant besides
/// the kernel call.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "formats/sell.hpp"
#include "measure/bytes_model.hpp"
#include "registry/variants.hpp"
#include "sell_tuner.hpp"

namespace kit {

/// @brief Key of the chunk height C in RunOptions::tunables.
inline const std::string kSellC = "sell_c";
/// @brief Key of the sorting window sigma in RunOptions::tunables.
inline const std::string kSellSigma = "sell_sigma";
/// @brief Key of the CUDA threads per row in RunOptions::tunables.
inline const std::string kSellThreads = "sell_threads";

/// @brief The declarations of C and sigma, for Variant::tunables: one place for names and ranges.
inline std::vector<Tunable> sell_tunables() {
    return {
        {kSellC, 1, kSellMaxC,
         "rows per chunk C (absent: 32, a warp; sell-auto: its pick); on CUDA a multiple of 32 for speed", true},
        {kSellSigma, 1, kSellMaxSigma,
         "sorting window sigma in rows, 1 or a multiple of C (absent: 256 or C; sell-auto: its pick)", true},
        {kSellThreads, 1, kSellMaxThreads,
         "CUDA threads per row, 1, 2, 4 or 8 (absent: 1; sell-auto: sell_threads_for's pick from the mean row)", true}};
}

/// @brief Converts the hub to SELL-C-sigma with the options' C and sigma (absent: the defaults).
struct SellForRun {
    /// @brief Sell<T>::from_coo(A, {sell_c, sell_sigma}). @param A [in] hub matrix
    /// @param opt [in] run options  @param tag [in] T{}, the working precision
    template <class T>
    Sell<T> operator()(const CooMatrix& A, const RunOptions& opt, T tag) const {
        (void)tag;
        return Sell<T>::from_coo(A, {opt.tunable(kSellC), opt.tunable(kSellSigma), opt.tunable(kSellThreads)});
    }
};

/// @brief Converts the hub to SELL-C-sigma with sell::auto_setting's (C, sigma): choose_sell's
/// pick, sorted globally for scattered rows; a C or sigma set in the options replaces the pick
/// (as SellForRun). Threads per row: the options' sell_threads, else sell_threads_for's pick,
/// which on a GPU also counts the threads it holds at once (`resident_threads`).
struct SellAutoForRun {
    /// Threads the GPU holds at once, read when a run converts (empty on the CPU: the bytes rule alone).
    std::function<count_t()> resident_threads = {};

    /// @brief Sell<T>::from_coo(A, auto_setting's pick). @param A [in] hub matrix
    /// @param opt [in] run options  @param tag [in] T{}, the working precision
    template <class T>
    Sell<T> operator()(const CooMatrix& A, const RunOptions& opt, T tag) const {
        (void)tag;
        const int C = opt.tunable(kSellC), sigma = opt.tunable(kSellSigma), threads = opt.tunable(kSellThreads);
        // A pick's sigma suits its own C only, so a C or sigma set by hand replaces both.
        SellParams p{C, sigma, threads};
        if (C == 0 && sigma == 0) {
            const sell::SellCandidate pick = sell::auto_setting(A, sizeof(T));
            p = {pick.C, pick.sigma, threads};
        }
        Sell<T> m = Sell<T>::from_coo(A, p);
        // Threads per row leave the arrays as they are, so the rule reads the converted slots.
        if (threads == 0)
            m.threads = sell_threads_for(m.C, m.slots(), m.rows, sizeof(T), resident_threads ? resident_threads() : 0);
        return m;
    }
};

/// @brief The bytes model of a SELL run (sell_bytes_of), as the `bytes` argument.
struct SellBytes {
    /// @brief Bytes per SpMV. @param m [in] the converted matrix  @param value_bytes [in] sizeof(T)
    template <class T>
    count_t operator()(const Sell<T>& m, count_t value_bytes) const {
        return sell_bytes_of(m, value_bytes);
    }
};

/// @brief The note of a SELL run (C, sigma, chunks, slots, beta), as the `describe` argument.
struct SellNote {
    /// @brief describe_layout(m). @param m [in] the converted matrix
    template <class T>
    std::string operator()(const Sell<T>& m) const {
        return describe_layout(m);
    }
};

}  // namespace kit
