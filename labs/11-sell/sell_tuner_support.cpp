// Lab 11: the candidates of the (C, sigma) rule and sell-auto's setting; the rule itself is the
// student's (step 3).
#include "sell_tuner.hpp"

#include <algorithm>

#include "measure/bytes_model.hpp"

namespace kit::sell {

std::vector<index_t> sigma_candidates(index_t C, index_t rows) {
    std::vector<index_t> out = {1};
    // Windows of C, 4C, 16C, ...: each step gathers rows from four times as many chunks; the
    // first window that covers every row is a global sort, and nothing larger changes the order.
    for (count_t sigma = C; sigma <= kSellMaxSigma; sigma *= 4) {
        out.push_back(static_cast<index_t>(sigma));
        if (sigma >= rows) break;
    }
    return out;
}

double median_row_span(const CooMatrix& A) {
    if (A.cols == 0) return 0;
    std::vector<double> spans;
    for (std::size_t k = 0; k < A.row_idx.size();) {  // the hub is sorted: a row's entries are adjacent
        std::size_t end = k;
        while (end < A.row_idx.size() && A.row_idx[end] == A.row_idx[k]) ++end;
        spans.push_back(static_cast<double>(A.col_idx[end - 1] - A.col_idx[k] + 1) / A.cols);
        k = end;
    }
    if (spans.empty()) return 0;
    std::nth_element(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(spans.size() / 2), spans.end());
    return spans[spans.size() / 2];
}

SellCandidate auto_setting(const CooMatrix& A, count_t value_bytes) {
    const std::vector<index_t> lengths = sell_row_lengths(A);
    SellCandidate pick = choose_sell(lengths, A.cols, value_bytes).best;
    if (median_row_span(A) <= kScatteredSpan) return pick;
    const index_t global = sigma_candidates(pick.C, A.rows).back();
    const count_t sorted_slots = sell_slots(lengths, pick.C, global);
    // A sort that pads no less than the rows in place (one chunk, rows of one length) buys
    // nothing for the permutation's load, which sigma = 1 skips (sell_row_at).
    if (sorted_slots >= sell_slots(lengths, pick.C, 1)) return pick;
    pick.sigma = global;
    pick.slots = sorted_slots;
    pick.bytes =
        sell_bytes(A.rows, A.cols, (static_cast<count_t>(A.rows) + pick.C - 1) / pick.C, sorted_slots, value_bytes);
    return pick;
}

}  // namespace kit::sell
