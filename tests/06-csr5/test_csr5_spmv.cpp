// Lab 06 public tests. Tier 1: the 4x4 example and the handout's 8x8 example, exact, with tiles
// small enough to hold complete tiles and a tail. Tier 2: rdb450 against the oracle.
#include <tuple>
#include <utility>
#include <vector>

#include "csr5_example.hpp"
#include "csr5_kernels.hpp"
#include "csr5_run.hpp"
#include "observe.hpp"
#include "test_support.hpp"

using kit::Backend;
using kit::Comparison;
using namespace kit::testing;

namespace {

kit::RunOptions tiles(int omega, int sigma) {
    kit::RunOptions opt;
    opt.tunables[kit::kCsr5Omega] = omega;
    opt.tunables[kit::kCsr5Sigma] = sigma;
    return opt;
}

// Empty rows, and a row that spans three tiles, with omega = sigma = 2 (4 entries a tile):
// rows 1, 3, 4 and 7 are empty; row 2 holds entries 3..8 (tiles 0, 1 and 2); the last
// tile is a tail of 2. Tiles 1 and 2 start inside row 2, so each begins with a carry, and
// tile 2's segments skip the empty rows 3 and 4 (its empty_offset list is used).
// Small integers: exact in float and double.
Problem empty_rows_problem() {
    kit::CooMatrix A;
    A.rows = A.cols = 8;
    const std::vector<std::pair<kit::index_t, std::vector<kit::index_t>>> rows = {
        {0, {0, 3, 6}}, {2, {0, 1, 2, 4, 5, 7}}, {5, {1, 5}}, {6, {0, 3, 7}}};
    double value = 1;
    for (const auto& [r, cols] : rows)
        for (kit::index_t c : cols) A.add(r, c, value++);
    return {A, {1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8}};
}

// The 8x8 example (34 entries), with x = y = [1..8]: y + Ax = [31 133 90 237 500 202 1003 699].
Problem example8x8_problem() { return {kit::csr5_example8x8(), {1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8}}; }

// Runs cpu::csr5_tile on one tile of the 8x8 example (omega = sigma = 4), x = [1..8], y = 0.
template <class T>
::testing::AssertionResult tile_gives(kit::index_t tile, const std::vector<T>& expected_y, T expected_carry) {
    kit::CooMatrix A = kit::csr5_example8x8();
    A.normalize();
    const auto m = kit::Csr5<T>::from_coo(A, {4, 4});
    const std::vector<T> x{1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<T> y(8, T(0));
    T carry = 0;
    try {
        // The carry and y after the call, as the student's program recorded them.
        std::tie(carry, y) = observe([&] {
            std::vector<T> y_out = y;
            const T carry_out = kit::cpu::csr5_tile(m.view(), tile, x.data(), y_out.data());
            return std::pair<T, std::vector<T>>(carry_out, std::move(y_out));
        });
    } catch (const std::exception& e) {
        return ::testing::AssertionFailure() << e.what();
    }
    if (y.size() != expected_y.size())
        return ::testing::AssertionFailure() << "06-csr5 step 1: tile " << tile << " left " << y.size()
                                             << " values of y, expected " << expected_y.size();
    for (std::size_t r = 0; r < y.size(); ++r)
        if (y[r] != expected_y[r])
            return ::testing::AssertionFailure() << "06-csr5 step 1: tile " << tile << " wrote y[" << r
                                                 << "] = " << y[r] << ", expected " << expected_y[r];
    if (carry != expected_carry)
        return ::testing::AssertionFailure() << "06-csr5 step 1: tile " << tile << " returned carry " << carry
                                             << ", expected " << expected_carry << " (its first segment)";
    return ::testing::AssertionSuccess();
}

}  // namespace

KIT_PRECISION_SUITE(Step1_Csr5TileCpu);

// Tile 0 holds rows 0-3 and the start of row 4: row 0 is its first segment (the carry).
TYPED_TEST(Step1_Csr5TileCpu, Example8x8Tile0) {
    EXPECT_TRUE(tile_gives<TypeParam>(0, {0, 131, 87, 233, 63, 0, 0, 0}, 30));
}

// Tile 1 starts inside row 4 (the carry), holds rows 5 and 6 and the start of row 7.
TYPED_TEST(Step1_Csr5TileCpu, Example8x8Tile1) {
    EXPECT_TRUE(tile_gives<TypeParam>(1, {0, 0, 0, 0, 0, 196, 996, 221}, 432));
}

// omega = sigma = 2: two complete tiles of 4 entries and a tail of 1 (the header's drawing).
KIT_PRECISION_SUITE(Step2_Csr5Cpu);

TYPED_TEST(Step2_Csr5Cpu, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = example4x4_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cpu, this->precision, problem, Comparison::exact, tiles(2, 2));

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_Csr5Cpu, Example8x8) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = example8x8_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cpu, this->precision, problem, Comparison::exact, tiles(4, 4));

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_Csr5Cpu, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = rdb450_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cpu, this->precision, problem, Comparison::bound, tiles(0, 0));

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step2_Csr5Cpu, EmptyRowsAcrossTiles) {
    KIT_REQUIRE_BACKEND(Backend::cpu);
    const Problem problem = empty_rows_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cpu, this->precision, problem, Comparison::exact, tiles(2, 2));

    EXPECT_TRUE(matches_oracle(run));
}

// Default tiles (omega 32, sigma 4: 128 entries) are larger than both examples: all tail.
KIT_PRECISION_SUITE(Step3_Csr5TailCuda);

TYPED_TEST(Step3_Csr5TailCuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cuda, this->precision, problem, Comparison::exact, tiles(0, 0));

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step3_Csr5TailCuda, Example8x8) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example8x8_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cuda, this->precision, problem, Comparison::exact, tiles(0, 0));

    EXPECT_TRUE(matches_oracle(run));
}

KIT_PRECISION_SUITE(Step4_Csr5Cuda);

TYPED_TEST(Step4_Csr5Cuda, Example4x4) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example4x4_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cuda, this->precision, problem, Comparison::exact, tiles(2, 2));

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_Csr5Cuda, Example8x8) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = example8x8_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cuda, this->precision, problem, Comparison::exact, tiles(4, 4));

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_Csr5Cuda, Rdb450) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = rdb450_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cuda, this->precision, problem, Comparison::bound, tiles(0, 0));

    EXPECT_TRUE(matches_oracle(run));
}

TYPED_TEST(Step4_Csr5Cuda, EmptyRowsAcrossTiles) {
    KIT_REQUIRE_BACKEND(Backend::cuda);
    const Problem problem = empty_rows_problem();

    const OracleRun run =
        run_against_oracle("csr5", Backend::cuda, this->precision, problem, Comparison::exact, tiles(2, 2));

    EXPECT_TRUE(matches_oracle(run));
}
