// The bytes models' relations to one another, where one format is another plus a known part.
#include <gtest/gtest.h>

#include "measure/bytes_model.hpp"

using namespace kit;

// Lab 10 on one rank: the local block is the whole CSR matrix, the remote block is empty but
// still has its row_ptr, and no halo entry moves.
TEST(BytesModel, DistOnOneRankIsCsrPlusTheEmptyRemoteRowPtr) {
    for (const count_t vb : {4, 8})
        EXPECT_EQ(dist_csr_bytes(1000, 900, 5000, 1, 0, vb), csr_bytes(1000, 900, 5000, vb) + (1000 + 1) * 4);
}

// Each halo entry: the sender reads its index and x value and writes the send buffer; the
// remote product reads it once more. One more rank adds one entry to each block's row_ptr.
TEST(BytesModel, DistGrowsByTheHaloAndTheRanks) {
    const count_t base = dist_csr_bytes(4, 4, 9, 2, 0, 8);
    EXPECT_EQ(dist_csr_bytes(4, 4, 9, 2, 3, 8) - base, 3 * (4 + 3 * 8));
    EXPECT_EQ(dist_csr_bytes(4, 4, 9, 3, 0, 8) - base, 2 * 4);
}
