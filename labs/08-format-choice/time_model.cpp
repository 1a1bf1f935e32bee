#include "time_model.hpp"

#include <algorithm>
#include <cmath>

namespace kit::model {

double resident_threads(const DeviceParams& p) { return static_cast<double>(p.sms) * p.warps_per_sm * p.warp; }

double occupancy_gbs(const DeviceParams& p, double threads, double flight_bytes) {
    return std::clamp(threads, 1.0, resident_threads(p)) * flight_bytes /
           p.latency_ns;  // an empty matrix still launches
}

double unrolled_rounds(count_t trips, int unroll) {
    const count_t u = std::max(1, unroll);
    return trips <= 0 ? 0.0 : static_cast<double>(trips / u + trips % u);
}

double partly_hidden(double a, double b, double k) {
    const double longer = std::max(a, b), shorter = std::min(a, b);
    if (k >= kMaxOverlapPower || longer <= 0) return longer;
    const double power = std::max(1.0, k);  // below 1 the pair would cost more than their sum
    // longer x (1 + (shorter / longer)^k)^(1/k): no overflow for large k or times
    return longer * std::pow(1 + std::pow(shorter / longer, power), 1 / power);
}

double overlap_power_for(double a, double b, double total) {
    if (total >= a + b) return 1;
    if (total <= std::max(a, b)) return kMaxOverlapPower;
    double low = 1, high = kMaxOverlapPower;  // partly_hidden falls as k grows
    for (int i = 0; i < 60; ++i) {
        const double mid = std::sqrt(low * high);
        (partly_hidden(a, b, mid) > total ? low : high) = mid;
    }
    return std::sqrt(low * high);
}

double mean_unrolled_rounds(const RowLengthPmf& pmf, int unroll) {
    if (pmf.rows <= 0) return 0;
    double sum = 0;
    for (std::size_t len = 1; len < pmf.rows_with.size(); ++len)
        sum += static_cast<double>(pmf.rows_with[len]) * unrolled_rounds(static_cast<count_t>(len), unroll);
    return sum / pmf.rows;
}

double atomic_line_ms(const RowLengthPmf& pmf, index_t skip, double value_bytes, const DeviceParams& p) {
    const double resident = resident_threads(p);
    const double entries_per_line = std::max(1.0, p.line_bytes / value_bytes);
    double window_ns = 0;
    double atomics = 0;
    for (std::size_t len = static_cast<std::size_t>(std::max<index_t>(skip, 0)) + 1; len < pmf.rows_with.size();
         ++len) {
        if (pmf.rows_with[len] == 0) continue;
        const double n = static_cast<double>(len) - static_cast<double>(skip);  // atomics per row
        const double lines = std::max(1.0, resident / n / entries_per_line);
        window_ns += static_cast<double>(pmf.rows_with[len]) * n * p.atomic_ns / lines;
        atomics += static_cast<double>(pmf.rows_with[len]) * n;
    }
    // All of y on few lines: every line's share of the atomics queues on it, whatever the rows.
    const double y_lines = std::max(1.0, static_cast<double>(pmf.rows) / entries_per_line);
    return std::max(window_ns, atomics / y_lines * p.line_atomic_ns(value_bytes)) * 1e-6;
}

}  // namespace kit::model
