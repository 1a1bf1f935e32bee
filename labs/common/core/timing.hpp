/// @file timing.hpp
/// @brief Host-side timing helpers: the median of repeats, and a wall clock.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace kit {

/// @brief Median of a set of timings; 0 for an empty set.
///
/// The median, not the mean: one preempted or cold repeat must not move the figure.
/// @param samples [in] timings (copied, since they are partially sorted)
inline double median(std::vector<double> samples) {
    if (samples.empty()) return 0.0;
    const std::size_t mid = samples.size() / 2;
    std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
    if (samples.size() % 2) return samples[mid];
    const double upper = samples[mid];
    const double lower = *std::max_element(samples.begin(), samples.begin() + mid);
    return 0.5 * (lower + upper);
}

/// @brief Wall-clock stopwatch in milliseconds, for CPU kernels.
class HostTimer {
public:
    /// @brief Restarts the stopwatch.
    void start() { t0_ = std::chrono::steady_clock::now(); }
    /// @brief Milliseconds since start().
    double elapsed_ms() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
    }

private:
    std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace kit
