/// @file time_model.hpp
/// @brief The device-level terms of lab 08's time model that its predictions (predict_kernel)
/// and its calibration (`spmv-kit calibrate`) share: occupancy, unrolled loops and the queues
/// of atomics on y's cache lines.
#pragma once

#include "core/types.hpp"
#include "model/format_model.hpp"

namespace kit::model {

/// @brief Threads the GPU holds at once: sms x warps_per_sm x warp. @param p [in] device parameters
double resident_threads(const DeviceParams& p);

/// @brief The DRAM rate a launch of `threads` threads can keep up when each has `flight_bytes`
/// bytes of loads in flight, by Little's law (bytes in flight = rate x latency): at most
/// sms x warps_per_sm x warp threads are resident at once, so the rate is min(threads,
/// resident) x flight_bytes / latency_ns (threads counted as at least 1). Why: a launch
/// smaller than the GPU (dia-vec4 gives a thread four rows, so it launches N / 4 threads) cannot keep enough loads in flight to cover
/// DRAM's latency, and streams below the bandwidth however wide its loads are.
/// @param p [in] device parameters  @param threads [in] threads the kernel launches
/// @param flight_bytes [in] bytes of loads one thread has in flight  @return GB/s (bytes per ns)
double occupancy_gbs(const DeviceParams& p, double threads, double flight_bytes);

/// @brief Trips nvcc unrolls in the kernels' loops over diagonals and row entries (csr-scalar,
/// ELL, dia-naive), as the SASS shows (`cuobjdump -sass`); used by predict_kernel.
constexpr int kLoopUnroll = 4;
/// @brief Trips nvcc unrolls in dia-vec4's loop, whose trips load quads; used by predict_kernel
/// and by calibrate's latency band.
constexpr int kQuadLoopUnroll = 2;

/// @brief Rounds of DRAM latency that one thread's loop of `trips` trips waits: nvcc unrolls
/// the loop by `unroll` (the loads of an unrolled group go out together) and runs the trips
/// left over one at a time, so floor(trips / unroll) + trips mod unroll. Why: the kernels loop
/// over diagonals or row entries whose count is known only at run time. With 7 diagonals
/// dia-naive (unroll 4) waits 1 + 3 = 4 rounds, as many as with 16, and keeps 7 / 4 loads in
/// flight on average where 8 diagonals keep 8 / 2 = 4 (handout 08 has the measurements).
/// @param trips [in] trips of the loop (at least 0)  @param unroll [in] the unroll factor (at least 1)
/// @return rounds, 0 for an empty loop
double unrolled_rounds(count_t trips, int unroll);

/// @brief Two times that overlap in part: (a^k + b^k)^(1/k), from their sum (k = 1) to the
/// longer (k >= kMaxOverlapPower, exactly). Why: a loop's dependent rounds and the DRAM stream
/// its loads make hide each other only while one is much the longer; dia-naive in float on 7
/// diagonals, whose 3 leftover single trips take about as long as the stream, takes about a
/// third of the shorter on top of the longer (handout 08). @param a [in] ms  @param b [in] ms
/// @param k [in] DeviceParams::loop_overlap_power (at least 1)  @return ms
double partly_hidden(double a, double b, double k);

/// @brief The power k for which partly_hidden(a, b, k) = total: 1 when total is the sum or
/// more, kMaxOverlapPower when it is the longer or less (calibrate's inversion).
/// @param a [in] ms  @param b [in] ms  @param total [in] measured ms  @return k in [1, kMaxOverlapPower]
double overlap_power_for(double a, double b, double total);

/// @brief unrolled_rounds averaged over the rows of the PMF, for a kernel that gives each
/// row's loop to one thread (csr-scalar). @param pmf [in] row-length distribution
/// @param unroll [in] the unroll factor  @return mean rounds per row, 0 for a matrix without rows
double mean_unrolled_rounds(const RowLengthPmf& pmf, int unroll);

/// @brief The time coo-atomic's atomics take when long rows queue them on few cache lines of y.
///
/// The resident threads (sms x warps_per_sm x warp) hold one entry each. A row of n entries
/// fills a window of them with resident / n rows, whose y entries lie on resident / n /
/// (line_bytes / value_bytes) lines of L2; the atomics on one line retire one after another,
/// atomic_ns apart, so the window's lines work in parallel and a row's n atomics cost n x
/// atomic_ns / max(1, lines). Summed over the rows longer than `skip`, counting their entries
/// past `skip` (0 for coo-atomic; HYB's ELL width K for its COO part). Why: short rows spread
/// the window over thousands of lines and this term vanishes; rows of thousands of entries
/// crowd it onto a handful, and coo-atomic runs at a tenth of its short-row rate. A small y
/// queues them too, however short the rows: its rows / (line_bytes / value_bytes) lines take
/// all the atomics, line_atomic_ns_float or _double apart on each (1024 rows of 32, float:
/// 1024 atomics a line, about 3 us), and the longer of the two queues is the time.
/// @param pmf [in] row-length distribution  @param skip [in] entries of each row not added atomically
/// @param value_bytes [in] 4 or 8  @param p [in] device parameters  @return milliseconds
double atomic_line_ms(const RowLengthPmf& pmf, index_t skip, double value_bytes, const DeviceParams& p);

}  // namespace kit::model
