#include "formats/sell.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "core/kit_error.hpp"

namespace kit {
namespace {

/// Widths and slot offsets of the chunks of a row order, and the widest chunk (for the refusal).
struct ChunkShape {
    std::vector<index_t> width;  // per chunk
    std::vector<count_t> start;  // chunks + 1 slot offsets (count_t: checked before narrowing)
    index_t widest = 0;          // chunk with the largest width
};

ChunkShape chunk_shape(const std::vector<index_t>& lengths, const std::vector<index_t>& perm, index_t C) {
    const count_t rows = static_cast<count_t>(lengths.size());
    const count_t chunks = (rows + C - 1) / C;
    ChunkShape s;
    s.width.assign(static_cast<std::size_t>(chunks), 0);
    s.start.assign(static_cast<std::size_t>(chunks) + 1, 0);
    for (count_t p = 0; p < rows; ++p) {
        index_t& w = s.width[static_cast<std::size_t>(p / C)];
        w = std::max(w, lengths[perm[p]]);
    }
    for (count_t c = 0; c < chunks; ++c) {
        s.start[c + 1] = s.start[c] + static_cast<count_t>(s.width[c]) * C;
        if (s.width[c] > s.width[s.widest]) s.widest = static_cast<index_t>(c);
    }
    return s;
}

[[noreturn]] void refuse(const CooMatrix& A, SellParams p, const ChunkShape& s, const SellLimits& limits,
                         double limit) {
    const count_t slots = s.start.back();
    std::ostringstream msg;
    msg << "SELL-C-sigma conversion refused: with C " << p.C << " and sigma " << p.sigma << ", chunk " << s.widest
        << " is " << s.width[s.widest] << " slots wide, and the " << s.width.size() << " chunks store " << slots
        << " slots for " << A.nnz() << " nonzeros (beta " << static_cast<double>(A.nnz()) / static_cast<double>(slots)
        << "), above the limit " << limits.max_fill << " x nnz + " << limits.floor_slots << " = "
        << static_cast<count_t>(limit)
        << ". Long rows pad their whole chunk: a larger sigma sorts them together; else use HYB or CSR.";
    throw ConversionRefused(msg.str());
}

}  // namespace

SellParams sell_resolve(SellParams p) {
    if (p.C == 0) p.C = kSellDefaultC;
    if (p.sigma == 0) p.sigma = std::max(kSellDefaultSigma, p.C) / p.C * p.C;
    if (p.C < 1 || p.C > kSellMaxC)
        throw Error("SELL-C-sigma: C = " + std::to_string(p.C) + " is outside 1.." + std::to_string(kSellMaxC));
    if (p.sigma < 1 || p.sigma > kSellMaxSigma || (p.sigma != 1 && p.sigma % p.C != 0))
        throw Error("SELL-C-sigma: sigma = " + std::to_string(p.sigma) +
                    " must be 1 (no sorting) or a multiple of C = " + std::to_string(p.C) + " up to " +
                    std::to_string(kSellMaxSigma) + " (windows made of whole chunks)");
    if (p.threads == 0) p.threads = 1;
    if (p.threads < 1 || p.threads > kSellMaxThreads || (p.threads & (p.threads - 1)) != 0 ||
        p.C * p.threads > kSellMaxC)
        throw Error("SELL-C-sigma: threads = " + std::to_string(p.threads) +
                    " must be 1, 2, 4 or 8, with C * threads <= " + std::to_string(kSellMaxC) +
                    " (C = " + std::to_string(p.C) + ")");
    return p;
}

namespace {
/// Stored slots per row, 0 for no rows.
double mean_stored_row(count_t slots, index_t rows) {
    return static_cast<double>(slots) / static_cast<double>(std::max<index_t>(rows, 1));
}
}  // namespace

index_t sell_threads_for(index_t C, count_t slots, index_t rows, count_t value_bytes, count_t resident_threads) {
    const double mean = mean_stored_row(slots, rows);
    const double slots_per_thread =
        kSellBytesPerThread / (static_cast<double>(value_bytes) + static_cast<double>(sizeof(index_t)));
    const auto can_double = [&](index_t T) { return T < kSellMaxThreads && C * 2 * T <= kSellSplitBlock; };
    index_t T = 1;
    while (can_double(T) && mean >= slots_per_thread * 2 * T) T *= 2;
    // the threads the row kernels launch, chunks x C x T, against those the GPU holds at once
    const count_t chunk_rows = static_cast<count_t>(std::max<index_t>(C, 1));
    const count_t padded_rows =
        (static_cast<count_t>(std::max<index_t>(rows, 0)) + chunk_rows - 1) / chunk_rows * chunk_rows;
    while (resident_threads > 0 && slots > 0 && can_double(T) && padded_rows * 2 * T <= resident_threads && mean >= T)
        T *= 2;
    return T;
}

index_t sell_wide_limit(index_t threads, count_t slots, index_t rows, count_t resident_threads) {
    const index_t T = std::max<index_t>(threads, 1);
    const index_t chain = kSellWideSlotsPerThread * T;
    const bool fills = static_cast<count_t>(rows) * static_cast<count_t>(T) >= resident_threads;
    if (!fills) return chain;
    return std::max(chain, static_cast<index_t>(std::min(kSellWideOverMean * mean_stored_row(slots, rows), 2e9)));
}

index_t sell_wide_segment(const std::vector<index_t>& chunk_width, index_t limit, count_t resident_threads) {
    count_t widest = 0;
    const auto segments_of = [&](count_t segment) {
        count_t n = 0;
        for (const index_t w : chunk_width)
            if (w > limit) n += (w + segment - 1) / segment;
        return n;
    };
    for (const index_t w : chunk_width) widest = std::max<count_t>(widest, w);
    count_t segment = kSellWideSegment;
    while (segment > kSellWideMinSegment && segments_of(segment) * kSellSplitBlock < resident_threads &&
           (widest + segment / 2 - 1) / (segment / 2) <= kSellWideMaxChain)
        segment /= 2;
    return static_cast<index_t>(segment);
}

SellWidePlan sell_wide_plan(const std::vector<index_t>& chunk_width, index_t threads, count_t slots, index_t rows,
                            count_t resident_threads) {
    SellWidePlan plan;
    const index_t limit = sell_wide_limit(threads, slots, rows, resident_threads);
    plan.segment = sell_wide_segment(chunk_width, limit, resident_threads);
    plan.row_widths = chunk_width;
    for (std::size_t c = 0; c < chunk_width.size(); ++c) {
        if (chunk_width[c] <= limit) continue;
        plan.row_widths[c] = 0;
        for (index_t from = 0; from < chunk_width[c]; from += plan.segment) {
            plan.wide_chunk.push_back(static_cast<index_t>(c));
            plan.wide_from.push_back(from);
        }
    }
    return plan;
}

std::vector<index_t> sell_row_lengths(const CooMatrix& A) {
    if (!A.is_normalized()) throw Error("sell_row_lengths: hub matrix is not normalized (call normalize())");
    std::vector<index_t> lengths(static_cast<std::size_t>(A.rows), 0);
    for (const index_t r : A.row_idx) ++lengths[r];
    return lengths;
}

std::vector<index_t> sell_row_order(const std::vector<index_t>& row_lengths, index_t sigma) {
    if (sigma < 1) throw Error("sell_row_order: sigma must be at least 1");
    std::vector<index_t> perm(row_lengths.size());
    std::iota(perm.begin(), perm.end(), index_t{0});
    const auto longer = [&](index_t a, index_t b) { return row_lengths[a] > row_lengths[b]; };
    for (std::size_t start = 0; start < perm.size(); start += static_cast<std::size_t>(sigma)) {
        const std::size_t end = std::min(perm.size(), start + static_cast<std::size_t>(sigma));
        std::stable_sort(perm.begin() + static_cast<std::ptrdiff_t>(start),
                         perm.begin() + static_cast<std::ptrdiff_t>(end), longer);
    }
    return perm;
}

template <class T>
Sell<T> Sell<T>::from_coo(const CooMatrix& A, SellParams params, const SellLimits& limits) {
    const SellParams p = sell_resolve(params);
    const std::vector<index_t> lengths = sell_row_lengths(A);
    std::vector<index_t> perm = sell_row_order(lengths, p.sigma);
    const ChunkShape shape = chunk_shape(lengths, perm, p.C);
    const count_t slots = shape.start.back();
    const double limit = limits.max_fill * static_cast<double>(A.nnz()) + static_cast<double>(limits.floor_slots);
    if (static_cast<double>(slots) > limit) refuse(A, p, shape, limits, limit);
    check_index_range("SELL stored slots", slots);

    Sell<T> out;
    out.rows = A.rows;
    out.cols = A.cols;
    out.C = p.C;
    out.sigma = p.sigma;
    out.threads = p.threads;
    out.chunk_width = shape.width;
    out.chunk_ptr.assign(shape.start.begin(), shape.start.end());
    out.col_idx.assign(static_cast<std::size_t>(slots), kPadding);
    out.vals.assign(static_cast<std::size_t>(slots), T(0));
    // Where each row's entries start in the sorted hub, so rows can be visited in perm order.
    std::vector<count_t> row_start(static_cast<std::size_t>(A.rows) + 1, 0);
    for (index_t r = 0; r < A.rows; ++r) row_start[r + 1] = row_start[r] + lengths[r];
    for (count_t pos = 0; pos < A.rows; ++pos) {
        const index_t row = perm[pos];
        const count_t c = pos / p.C, lane = pos % p.C;
        for (count_t k = 0; k < lengths[row]; ++k) {
            const auto at = static_cast<std::size_t>(shape.start[c] + k * p.C + lane);
            out.col_idx[at] = A.col_idx[row_start[row] + k];
            out.vals[at] = static_cast<T>(A.vals[row_start[row] + k]);
        }
    }
    out.perm = std::move(perm);
    out.nnz_ = A.nnz();
    return out;
}

template <class T>
CooMatrix Sell<T>::to_coo() const {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (count_t pos = 0; pos < rows; ++pos) {
        const count_t c = pos / C, lane = pos % C;
        for (count_t k = 0; k < chunk_width[c]; ++k) {
            const auto at = static_cast<std::size_t>(chunk_ptr[c] + k * C + lane);
            if (col_idx[at] != kPadding) A.add(perm[pos], col_idx[at], static_cast<double>(vals[at]));
        }
    }
    A.normalize();
    return A;
}

template struct Sell<float>;
template struct Sell<double>;

}  // namespace kit
