// Lab 02 hidden tests (tier 3): the hostile gallery for every kernel, and the matrices that
// stress the merge-based kernel's shares and carries.
#include <string>
#include <utility>
#include <vector>

#include "check/checked_run.hpp"
#include "io/generators.hpp"
#include "observe.hpp"
#include "test_support.hpp"
#if KIT_HAVE_CUDA
#include "csr_kernels.hpp"
#include "gpu/device_buffer.hpp"
#endif

using kit::Backend;
using kit::CooMatrix;
using kit::testing::ProblemList;

KIT_GALLERY_TEST(Step1_CsrScalarCuda, HostileGallery, "csr-scalar", Backend::cuda)
KIT_GALLERY_TEST(Step1_CsrVectorCuda, HostileGallery, "csr-vector", Backend::cuda)
KIT_GALLERY_TEST(Step2_CsrScalarOpenCL, HostileGallery, "csr-scalar", Backend::opencl)
KIT_GALLERY_TEST(Step3_CsrLanesCuda, HostileGallery, "csr-lanes", Backend::cuda)
KIT_GALLERY_TEST(Step4_CsrMergeCpu, HostileGallery, "csr-merge", Backend::cpu)
KIT_GALLERY_TEST(Step4_CsrMergeCuda, HostileGallery, "csr-merge", Backend::cuda)

namespace {

/// A rows x cols matrix whose row r holds lengths[r % lengths.size()] entries at
/// consecutive columns (wrapping), with random values.
CooMatrix cycling_rows(int rows, int cols, const std::vector<int>& lengths, unsigned seed) {
    CooMatrix A;
    A.rows = rows;
    A.cols = cols;
    for (int r = 0; r < rows; ++r) {
        const int len = lengths[static_cast<std::size_t>(r) % lengths.size()];
        for (int k = 0; k < len && k < cols; ++k) A.add(r, (r + 7 * k) % cols, 1.0);
    }
    A.normalize();
    kit::randomize_values(A, seed);
    return A;
}

/// The matrices of the merge-based kernel's edge cases. The GPU kernel cuts the merge path
/// into shares of 896 items per block and 7 per thread in double, 1152 and 9 in float; the
/// CPU version into 8 shares.
ProblemList merge_edge_cases() {
    ProblemList out;
    const auto add = [&](std::string name, CooMatrix A, unsigned seed) {
        out.emplace_back(std::move(name), kit::testing::random_vectors(std::move(A), seed));
    };
    // Every nonzero in one row: the row spans many blocks and every thread of each.
    add("one row of 5000", cycling_rows(1, 5000, {5000}, 1), 11);
    // One full row in the middle of 3000 empty ones: the blocks before it hold only row ends.
    {
        CooMatrix A;
        A.rows = A.cols = 3000;
        for (int c = 0; c < 3000; ++c) A.add(1500, c, 1.0);
        A.normalize();
        kit::randomize_values(A, 2);
        add("3000 rows, all nonzeros in row 1500", std::move(A), 12);
    }
    // Many empty rows: one entry every 97th row, so most shares hold nothing but row ends.
    add("20000 rows, no entries", cycling_rows(20000, 20000, {0}, 3), 13);
    {
        std::vector<int> lengths(97, 0);
        lengths[0] = 1;
        add("20000 rows, 1 entry in every 97th row", cycling_rows(20000, 20000, lengths, 4), 14);
    }
    // Rows whose ends fall just before, on and after thread (7) and block (896) boundaries.
    add("rows of 0..1791 entries around the share sizes",
        cycling_rows(3001, 4000, {0, 1, 6, 7, 8, 13, 14, 15, 895, 896, 897, 1791, 0, 0, 3}, 5), 15);
    // The same around the float shapes: 9 items per thread, 1152 per block.
    add("rows of 0..2303 entries around the float share sizes",
        cycling_rows(3001, 4000, {0, 1, 8, 9, 10, 17, 18, 19, 1151, 1152, 1153, 2303, 0, 0, 3}, 9), 19);
    // 300 rows of one entry, then a row of 1500: a block holds more row ends than threads
    // (its row ends and y are staged and written back in several rounds) and also a row
    // cut at both of its ends (the long one, reaching into the blocks before and after).
    {
        std::vector<int> lengths(301, 1);
        lengths[300] = 1500;
        add("300 one-entry rows, then a row of 1500, repeated", cycling_rows(6020, 2000, lengths, 10), 20);
    }
    // Fewer items (rows + nnz) than one share: one block, most of its threads idle.
    {
        CooMatrix A;
        A.rows = 10;
        A.cols = 12;
        A.add(0, 11, 1.0);
        A.add(4, 3, 1.0);
        A.add(4, 5, 1.0);
        A.normalize();
        kit::randomize_values(A, 6);
        add("10 x 12 with 3 entries", std::move(A), 16);
    }
    // Dense: every row is cut by block boundaries (the case where row-per-warp kernels lose).
    add("dense 300 x 300", cycling_rows(300, 300, {300}, 7), 17);
    // Long and short rows mixed, as on a power-law graph.
    add("power law 20000, longest row 6000", kit::generate_power_law(20000, 6000, 1.0, 8), 18);
    return out;
}

#if KIT_HAVE_CUDA
/// Runs cuda::csr_merge_spmv on `problem` in precision T with vals and col_idx starting one
/// value past their allocations, off every 16-byte boundary, so the kernel cannot stage its
/// products in 16-byte packs (float's default) and must take its other path.
/// @return "" when y matches the oracle, else the first wrong row
template <class T>
std::string merge_unaligned_error(const kit::testing::Problem& problem) {
    const auto h = kit::Csr<T>::from_coo(problem.A);
    const auto one_ahead = [](auto v) {  // a copy with one value in front
        v.insert(v.begin(), typename decltype(v)::value_type{});
        return v;
    };
    const kit::DeviceBuffer<kit::index_t> row_ptr(h.row_ptr), col_idx(one_ahead(h.col_idx));
    const kit::DeviceBuffer<T> vals(one_ahead(h.vals));
    const kit::CsrView<T> A{h.rows, h.cols, h.nnz(), row_ptr.data(), col_idx.data() + 1, vals.data() + 1};
    kit::DeviceBuffer<kit::MergeCoord> tile_start(
        static_cast<std::size_t>(kit::cuda::csr_merge_tiles<T>(h.rows, h.nnz())) + 1);
    const kit::DeviceBuffer<T> x(std::vector<T>(problem.x.begin(), problem.x.end()));
    kit::DeviceBuffer<T> y(std::vector<T>(problem.y.begin(), problem.y.end()));
    const std::vector<T> out = kit::testing::observe([&] {
        kit::cuda::csr_merge_partition(A, tile_start.data());
        kit::cuda::csr_merge_spmv(A, tile_start.data(), x.data(), y.data());
        return y.download();
    });
    const kit::Reference ref(problem.A, problem.x, problem.y);
    const kit::Precision p = sizeof(T) == 4 ? kit::Precision::f32 : kit::Precision::f64;
    const kit::Mismatch m =
        kit::compare_with_oracle(ref.expected(), std::vector<double>(out.begin(), out.end()), ref.tolerance(p));
    return m.row < 0 ? "" : kit::describe(m);
}
#endif

}  // namespace

TEST(Step4_CsrMergeCpu, MergeEdgeCases) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const ProblemList problems = merge_edge_cases();

    for (int shares : {1, 2, 3, 8, 64, 100000}) {  // 100000 shares: more shares than items
        kit::RunOptions opt;
        opt.tunables["csr_merge_shares"] = shares;
        EXPECT_TRUE(kit::testing::passes_problems("csr-merge", Backend::cpu, problems, opt)) << shares << " shares";
    }
}

TEST(Step4_CsrMergeCuda, MergeEdgeCases) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const ProblemList problems = merge_edge_cases();

    EXPECT_TRUE(kit::testing::passes_problems("csr-merge", Backend::cuda, problems));
}

TEST(Step4_CsrMergeCuda, UnalignedArrays) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
#if KIT_HAVE_CUDA
    for (const auto& [name, problem] : merge_edge_cases()) {
        EXPECT_EQ(merge_unaligned_error<float>(problem), "")
            << name << ", float, vals and col_idx off 16-byte boundaries";
        EXPECT_EQ(merge_unaligned_error<double>(problem), "")
            << name << ", double, vals and col_idx off 16-byte boundaries";
    }
#endif
}

// The GPU gates: a CUDA step earns its points only if its kernel, on 5.2 million entries,
// beats the kit's single-threaded CPU loop by kit::testing::kGpuFloorSpeedup (manifest: gates).
KIT_GPU_FLOOR_TEST(Step1_CsrScalarCuda, "csr-scalar", kit::testing::gpu_floor_matrix())
KIT_GPU_FLOOR_TEST(Step1_CsrVectorCuda, "csr-vector", kit::testing::gpu_floor_matrix())
KIT_GPU_FLOOR_TEST(Step3_CsrLanesCuda, "csr-lanes", kit::testing::gpu_floor_matrix())
KIT_GPU_FLOOR_TEST(Step4_CsrMergeCuda, "csr-merge", kit::testing::gpu_floor_matrix())
